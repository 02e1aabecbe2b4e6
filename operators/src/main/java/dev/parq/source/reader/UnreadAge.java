package dev.parq.source.reader;

import java.util.ArrayDeque;
import java.util.Deque;

import org.apache.flink.metrics.MetricGroup;

import dev.parq.source.FollowingMetrics;

/**
 * How long the oldest split a reader holds unread has waited since it was handed to the reader:
 * the metric {@link FollowingMetrics#OLDEST_UNREAD_AGE}. Splits are read in the order they came,
 * so the oldest is the one being read, else the next in the queue. Kept on the task thread, read by
 * the metrics' reporter thread.
 */
final class UnreadAge {

    /** When each queued split arrived, in the queue's order. */
    private final Deque<Long> arrivals = new ArrayDeque<>();
    /** When the oldest split not read to its end arrived; 0 with none. */
    private volatile long oldestSince;

    void register(MetricGroup group) {
        group.gauge(FollowingMetrics.OLDEST_UNREAD_AGE, this::millis);
    }

    long millis() {
        long since = oldestSince;
        return since == 0 ? 0L : Math.max(0L, System.currentTimeMillis() - since);
    }

    /** {@code splits} more splits were queued. */
    void arrived(int splits) {
        long now = System.currentTimeMillis();
        for (int i = 0; i < splits; i++) {
            arrivals.add(now);
        }
        if (oldestSince == 0) {
            oldestSince = now;
        }
    }

    /** The next queued split was taken; returns when it arrived. */
    long taken() {
        return arrivals.remove();
    }

    /** A split that arrived at {@code arrival} is being read. */
    void reading(long arrival) {
        oldestSince = arrival;
    }

    /** The split being read is done (or there was none to take): the next queued one is the oldest. */
    void finished() {
        oldestSince = arrivals.isEmpty() ? 0 : arrivals.peek();
    }
}
