package dev.parq.job.run;

import static dev.parq.source.FollowingMetrics.BYTES_BEHIND;
import static dev.parq.source.FollowingMetrics.BYTES_LOST;
import static dev.parq.source.FollowingMetrics.COPIES_RECOGNISED;
import static dev.parq.source.FollowingMetrics.ROTATIONS;
import static dev.parq.source.FollowingMetrics.TRACKED_FILES;
import static dev.parq.source.FollowingMetrics.TRUNCATIONS;
import static dev.parq.sink.commit.CommitRecorder.LAST_COMMITTED;
import static org.apache.flink.runtime.metrics.MetricNames.PENDING_BYTES;

import java.util.Set;

import dev.parq.job.embedded.MetricsTap;
import dev.parq.parse.operator.ConversionCounters;

/**
 * Reads an embedded ingest's status from its Flink metrics, through {@link MetricsTap}: the
 * enumerator's, the readers', the parsers' and the commit recorder's.
 */
final class StatusProbe {

    /** The metrics the status is made of; the reporter keeps these from the job's start. */
    static final Set<String> METRICS = Set.of(ConversionCounters.METRIC_RECORDS_IN, ConversionCounters.METRIC_REJECTED,
            BYTES_BEHIND, PENDING_BYTES, TRACKED_FILES, ROTATIONS, TRUNCATIONS, COPIES_RECOGNISED, BYTES_LOST,
            LAST_COMMITTED);

    private long lines;
    private long lastNanos = System.nanoTime();

    IngestStatus now() {
        long now = System.nanoTime();
        long parsed = MetricsTap.sum(ConversionCounters.METRIC_RECORDS_IN);
        long perSecond = Math.max(0, (parsed - lines) * 1_000_000_000L / Math.max(1, now - lastNanos));
        lines = parsed;
        lastNanos = now;
        return new IngestStatus(parsed, MetricsTap.sum(ConversionCounters.METRIC_REJECTED), perSecond,
                MetricsTap.sum(BYTES_BEHIND) + MetricsTap.sum(PENDING_BYTES), MetricsTap.sum(TRACKED_FILES),
                MetricsTap.sum(ROTATIONS), MetricsTap.sum(TRUNCATIONS), MetricsTap.sum(COPIES_RECOGNISED),
                MetricsTap.sum(BYTES_LOST), MetricsTap.sum(LAST_COMMITTED));
    }
}
