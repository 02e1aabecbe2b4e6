package dev.parq.job.cli;

import java.io.PrintStream;

import dev.parq.job.run.IngestRun;
import dev.parq.job.run.IngestStatus;

/**
 * What {@code ingest} tells on stderr: that it follows (and what it resumed from), warnings, and
 * its status: on a terminal a line redrawn every second; elsewhere (a service's journal) a line a
 * minute, and only when something changed.
 */
final class IngestProgress implements IngestRun.Listener {

    private static final long LOG_EVERY_NANOS = 60_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final String following;
    private boolean shown;
    private long nextLog = System.nanoTime() + LOG_EVERY_NANOS;
    private IngestStatus logged;

    IngestProgress(PrintStream err, boolean terminal, String following) {
        this.err = err;
        this.terminal = terminal;
        this.following = following;
    }

    @Override
    public void started(String resumedFrom, String howToStop) {
        err.println("parq: following " + following + (resumedFrom == null ? "" : ", resuming from " + resumedFrom)
                + "; " + howToStop);
    }

    @Override
    public void warning(String message) {
        clear();
        err.println("parq: warning: " + message);
    }

    @Override
    public void status(IngestStatus status) {
        if (terminal) {
            err.print("\r  " + line(status) + "   ");
            err.flush();
            shown = true;
        } else if (System.nanoTime() - nextLog >= 0) {
            nextLog = System.nanoTime() + LOG_EVERY_NANOS;
            if (!status.equals(logged)) {
                err.println("parq: " + line(status));
                logged = status;
            }
        }
    }

    static String line(IngestStatus status) {
        StringBuilder line = new StringBuilder()
                .append(Units.count(status.lines())).append(" lines (").append(Units.count(status.linesPerSecond()))
                .append("/s)");
        if (status.rejected() > 0) {
            line.append(", ").append(Units.count(status.rejected())).append(" rejected");
        }
        line.append(", ").append(status.files()).append(status.files() == 1 ? " file" : " files")
                .append(", lag ").append(Units.bytes(status.bytesBehind()));
        if (status.rotations() + status.truncations() + status.copies() > 0) {
            line.append(", rotated ").append(status.rotations()).append(", truncated ").append(status.truncations())
                    .append(", copies ").append(status.copies());
        }
        if (status.bytesLost() > 0) {
            line.append(", ").append(Units.bytes(status.bytesLost())).append(" lost");
        }
        line.append(status.lastCommitted() == 0 ? ", nothing committed yet"
                : ", committed checkpoint " + status.lastCommitted());
        return line.toString();
    }

    /** Clears the status line, before another line is printed. */
    void clear() {
        if (shown) {
            err.print("\r" + " ".repeat(100) + "\r");
            err.flush();
            shown = false;
        }
    }
}
