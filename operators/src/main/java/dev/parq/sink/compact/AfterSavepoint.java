package dev.parq.sink.compact;

import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.checkpoint.SavepointType;

/**
 * Whether a compaction operator compacts everything waiting at a barrier: at the first
 * {@link #BARRIERS} barriers after a savepoint that is not a stop. A stop with a savepoint
 * ({@code flink stop}, or parq's own on SIGTERM) does not tell the operators it is one before its
 * barrier, and what it compacts must be in it: so a stop is announced by a plain savepoint just
 * before it, and the stop's own barrier, one of the next, compacts all that was read. An operator
 * learns of a savepoint only once its barrier has passed, hence the barriers after it.
 */
final class AfterSavepoint {

    /**
     * How many barriers after a savepoint compact everything: the stop's, and one or two periodic
     * checkpoints that may come between the savepoint and the stop (a stop halts the periodic ones).
     */
    static final int BARRIERS = 3;

    private int barriersLeft;

    /** Told of every snapshot this operator takes, before its state is written. */
    void snapshotting(CheckpointOptions options) {
        if (options.getCheckpointType() instanceof SavepointType savepoint && !savepoint.isSynchronous()) {
            barriersLeft = BARRIERS;
        }
    }

    /** At a barrier, before it passes: whether to compact everything waiting. */
    boolean compactAllAtBarrier() {
        if (barriersLeft == 0) {
            return false;
        }
        barriersLeft--;
        return true;
    }
}
