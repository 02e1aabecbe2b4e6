package dev.parq.job.cli;

import java.io.PrintStream;

import dev.parq.job.run.ProgressListener;

/** A one-line progress display on a terminal: bytes done of total, MB/s and time left. */
final class Progress implements ProgressListener {

    private final PrintStream terminal;
    private boolean shown;
    /** The first report with bytes done: the rate is measured from there, past Flink's start-up. */
    private long firstNanos;
    private long firstBytes = -1;

    Progress(PrintStream terminal) {
        this.terminal = terminal;
    }

    @Override
    public void update(long bytesDone, long bytesTotal) {
        long now = System.nanoTime();
        if (firstBytes < 0 && bytesDone > 0) {
            firstBytes = bytesDone;
            firstNanos = now;
        }
        double seconds = (now - firstNanos) / 1e9;
        double rate = firstBytes < 0 || seconds < 0.5 ? 0 : (bytesDone - firstBytes) / seconds;
        String eta = rate > 0 && bytesTotal > bytesDone
                ? Units.duration((long) ((bytesTotal - bytesDone) / rate * 1000))
                : "-";
        int percent = bytesTotal == 0 ? 100 : (int) (100 * bytesDone / bytesTotal);
        terminal.printf("\r  %s / %s  %3d%%  %s  ETA %s   ",
                Units.bytes(bytesDone), Units.bytes(bytesTotal), percent,
                rate > 0 ? Units.bytes((long) rate) + "/s" : "-", eta);
        terminal.flush();
        shown = true;
    }

    void finish() {
        if (shown) {
            terminal.print("\r" + " ".repeat(72) + "\r");
            terminal.flush();
        }
    }
}
