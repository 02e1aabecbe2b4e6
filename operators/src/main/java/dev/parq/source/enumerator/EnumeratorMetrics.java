package dev.parq.source.enumerator;

import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * What the tailing enumerator counts, as Flink metrics of its group: files followed, bytes in
 * them not handed to a reader yet, rotations (renames), truncations, copies recognised, copies
 * waiting to be told from files of their own, and bytes lost (deleted or truncated before they
 * were read). Written on the coordinator thread, read by the metrics' reporter thread.
 */
final class EnumeratorMetrics {

    volatile long truncations;
    volatile long rotations;
    volatile long copies;
    volatile long bytesLost;
    volatile int unassigned;
    private volatile int trackedFiles;
    private volatile int parked;
    private volatile long bytesBehind;

    void register(SplitEnumeratorMetricGroup group) {
        group.gauge("trackedFiles", () -> trackedFiles);
        group.gauge("bytesBehind", () -> bytesBehind);
        group.gauge("rotations", () -> rotations);
        group.gauge("truncations", () -> truncations);
        group.gauge("copiesRecognised", () -> copies);
        group.gauge("copiesParked", () -> parked);
        group.gauge("bytesLost", () -> bytesLost);
        group.setUnassignedSplitsGauge(() -> (long) unassigned);
    }

    void published(int trackedFiles, int unassigned, int parked, long bytesBehind) {
        this.trackedFiles = trackedFiles;
        this.unassigned = unassigned;
        this.parked = parked;
        this.bytesBehind = bytesBehind;
    }
}
