package dev.parq.sink.rowgroup;

import java.util.concurrent.atomic.AtomicInteger;

import dev.parq.config.TaskHeap;

/**
 * The task heap (see {@link TaskHeap}) the Parquet writers of one JVM may fill with buffered row groups, shared among the
 * writers open at the time. A row group is kept in memory, compressed, until it is complete (its
 * column chunks must each be contiguous in the file), so the configured row-group size times the
 * number of parallel writers must fit the heap: on a task manager with many slots, or with dozens
 * of partitions open, it would not. Each writer ends its row group at the configured size or at
 * its share of the budget, whichever is smaller, so that more writers make smaller row groups
 * instead of an out-of-memory error; a writer counts what it holds as allocated (see
 * {@link RowGroupWriter}), so that the shares add up to what the heap holds.
 */
public final class RowGroupBudget {

    /** The share of the task heap that buffered row groups may take together. */
    static final double HEAP_SHARE = 0.4;
    /**
     * No writer's share goes below this, however many writers there are: past a hundred writers
     * per 100 MiB of budget (hundreds of partitions open), row groups stay of a size readers skip
     * through well, and the budget is overdrawn by at most this per writer.
     */
    static final long MIN_ROW_GROUP = 256L << 10;

    private final long bytes;
    private final AtomicInteger writers = new AtomicInteger();

    RowGroupBudget(long bytes) {
        this.bytes = bytes;
    }

    /** The budget of this JVM, sized from the task heap when it is first asked for. */
    public static RowGroupBudget jvm() {
        return Jvm.BUDGET;
    }

    private static final class Jvm {
        static final RowGroupBudget BUDGET = new RowGroupBudget((long) (TaskHeap.bytes() * HEAP_SHARE));
    }

    /** A writer opens: the shares get smaller. */
    void join() {
        writers.incrementAndGet();
    }

    /** A writer has closed. */
    void leave() {
        writers.decrementAndGet();
    }

    /** The row-group size a writer configured for {@code configured} bytes uses now. */
    long rowGroupSize(long configured) {
        return Math.min(configured, Math.max(MIN_ROW_GROUP, bytes / Math.max(1, writers.get())));
    }
}
