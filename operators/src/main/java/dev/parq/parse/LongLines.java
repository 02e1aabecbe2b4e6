package dev.parq.parse;

import java.util.concurrent.Semaphore;

import dev.parq.config.TaskHeap;

/**
 * The heap that the lines longer than a parser's window may take at a time, shared by the parsers
 * of one JVM. Such a line's values are copied a few times on their way into a Parquet page (the
 * window, the page, the compressed page, the row group's copy); each parser can take a line of up
 * to the line limit, and a JVM may run many parsers, so without a common budget a few of them
 * meeting long lines at once could together need more heap than there is, whatever the line
 * limit. A parser reserves its share when its window grows past the usual size and gives it back
 * once the batch holding the line has been written; meanwhile, parsers of ordinary lines go on.
 * A parser takes its whole share in one request, holding none while it waits, and requests are
 * served in turn, so that parsers neither wait for each other in a circle nor starve.
 */
final class LongLines {

    /** The share of the task heap that long lines may take together. */
    static final double HEAP_SHARE = 0.25;
    /** A long line is counted at this many times its window: the copies the writer makes of it. */
    static final int COPIES = 3;


    /** The budget, in KiB. */
    private final int permits;
    private final Semaphore free;

    LongLines(long bytes) {
        this.permits = (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes >> 10));
        this.free = new Semaphore(permits, true);
    }

    /** The budget of this JVM's parsers, sized from the task heap when it is first asked for. */
    static LongLines jvm() {
        return Jvm.BUDGET;
    }

    private static final class Jvm {
        static final LongLines BUDGET = new LongLines((long) (TaskHeap.bytes() * HEAP_SHARE));
    }

    /** What a window of {@code windowBytes} takes of the budget, in KiB: never more than all of it. */
    int permitsFor(long windowBytes) {
        return (int) Math.min(permits, ((long) COPIES * windowBytes + 1023) >> 10);
    }

    /**
     * Waits until {@code more} KiB of the budget are free and takes them.
     *
     * @throws IllegalStateException if the thread is interrupted while waiting, as a cancelled task is
     */
    void take(int more) {
        try {
            free.acquire(more);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for heap for a long line", e);
        }
    }

    void giveBack(int held) {
        if (held > 0) {
            free.release(held);
        }
    }

    /** KiB of the budget free now. */
    int available() {
        return free.availablePermits();
    }
}
