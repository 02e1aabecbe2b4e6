package dev.parq.job.cli;

import java.io.PrintStream;

import dev.parq.job.ProgressListener;

/** A one-line progress display on a terminal: bytes done of total, MB/s and time left. */
final class Progress implements ProgressListener {

    private final PrintStream terminal;
    private final long started = System.nanoTime();
    private boolean shown;

    Progress(PrintStream terminal) {
        this.terminal = terminal;
    }

    @Override
    public void update(long bytesDone, long bytesTotal) {
        double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        double rate = bytesDone / seconds;
        String eta = rate > 0 && bytesTotal > bytesDone
                ? Units.duration((long) ((bytesTotal - bytesDone) / rate * 1000))
                : "-";
        int percent = bytesTotal == 0 ? 100 : (int) (100 * bytesDone / bytesTotal);
        terminal.printf("\r  %s / %s  %3d%%  %s/s  ETA %s   ",
                Units.bytes(bytesDone), Units.bytes(bytesTotal), percent, Units.bytes((long) rate), eta);
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
