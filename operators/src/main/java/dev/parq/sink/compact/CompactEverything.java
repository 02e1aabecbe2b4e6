package dev.parq.sink.compact;

import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.checkpoint.SavepointType;

/**
 * Whether a compaction operator compacts everything waiting at a barrier, whatever its size and
 * the compaction interval: at the first {@link #BARRIERS_AFTER_SAVEPOINT} barriers after a
 * savepoint that is not a stop, and at the first barrier after the source has read a backlog.
 *
 * <p>A stop with a savepoint ({@code flink stop}, or parq's own on SIGTERM) does not tell the
 * operators it is one before its barrier, and what it compacts must be in it: so a stop is
 * announced by a plain savepoint just before it, and the stop's own barrier, one of the next,
 * compacts all that was read. An operator learns of a savepoint only once its barrier has passed,
 * hence the barriers after it.
 *
 * <p>The end of a backlog (a catch-up of rotated files at the start, a large file moved in) comes
 * down the job with the records, as Flink's record attributes: at the next barrier the writers roll
 * the last of it, and it is compacted and committed with that checkpoint, instead of waiting, in
 * files smaller than the target size, for the compaction interval.
 */
final class CompactEverything {

    /**
     * How many barriers after a savepoint compact everything: the stop's, and one or two periodic
     * checkpoints that may come between the savepoint and the stop (a stop halts the periodic ones).
     */
    static final int BARRIERS_AFTER_SAVEPOINT = 3;

    private int barriersLeft;
    private boolean backlog;

    /** Told of every snapshot this operator takes, before its state is written. */
    void snapshotting(CheckpointOptions options) {
        if (options.getCheckpointType() instanceof SavepointType savepoint && !savepoint.isSynchronous()) {
            barriersLeft = BARRIERS_AFTER_SAVEPOINT;
        }
    }

    /** Told whether the records that follow are of a backlog. */
    void backlog(boolean now) {
        if (backlog && !now) {
            barriersLeft = Math.max(barriersLeft, 1);
        }
        backlog = now;
    }

    /** At a barrier, before it passes: whether to compact everything waiting. */
    boolean atBarrier() {
        if (barriersLeft == 0) {
            return false;
        }
        barriersLeft--;
        return true;
    }
}
