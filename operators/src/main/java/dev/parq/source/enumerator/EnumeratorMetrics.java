package dev.parq.source.enumerator;

import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

import dev.parq.source.FollowingMetrics;

/**
 * What the tailing enumerator counts, as Flink metrics of its group: files followed, bytes in
 * them not handed to a reader yet, rotations (renames), truncations, copies recognised, copies
 * waiting to be told from files of their own, and bytes lost (deleted or truncated before they
 * were read); of followed objects, those written again and those that turned up late; backlogs read. Written on the coordinator thread, read by the metrics' reporter thread.
 */
final class EnumeratorMetrics {

    volatile long truncations;
    volatile long rotations;
    volatile long copies;
    volatile long bytesLost;
    volatile long objectsRewritten;
    volatile long lateObjects;
    volatile long backlogsRead;
    volatile int unassigned;
    private volatile int trackedFiles;
    private volatile int parked;
    private volatile long bytesBehind;

    void register(SplitEnumeratorMetricGroup group) {
        group.gauge(FollowingMetrics.TRACKED_FILES, () -> trackedFiles);
        group.gauge(FollowingMetrics.BYTES_BEHIND, () -> bytesBehind);
        group.gauge(FollowingMetrics.ROTATIONS, () -> rotations);
        group.gauge(FollowingMetrics.TRUNCATIONS, () -> truncations);
        group.gauge(FollowingMetrics.COPIES_RECOGNISED, () -> copies);
        group.gauge(FollowingMetrics.COPIES_PARKED, () -> parked);
        group.gauge(FollowingMetrics.BYTES_LOST, () -> bytesLost);
        group.gauge(FollowingMetrics.OBJECTS_REWRITTEN, () -> objectsRewritten);
        group.gauge(FollowingMetrics.LATE_OBJECTS, () -> lateObjects);
        group.gauge(FollowingMetrics.BACKLOGS_READ, () -> backlogsRead);
        group.setUnassignedSplitsGauge(() -> (long) unassigned);
    }

    void published(int trackedFiles, int unassigned, int parked, long bytesBehind) {
        this.trackedFiles = trackedFiles;
        this.unassigned = unassigned;
        this.parked = parked;
        this.bytesBehind = bytesBehind;
    }
}
