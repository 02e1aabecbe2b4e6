package dev.parq.source.enumerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.annotation.Nullable;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.split.FileSplit;

/**
 * Follows watched inputs: every discover interval it looks at the files they match and hands out
 * the lines appended since, as splits that end after the last whole line; a partial last line
 * waits for the scan that finds it complete, or, in a file renamed away (rotated) that has not
 * grown for the rotate wait, is taken as it is. A split's range never changes once issued, so the
 * batch reader reads it as it reads a conversion's windows.
 *
 * <p>A file is known by its identity (device and inode), checked against the hash of its first
 * bytes: a renamed file (rotation) is followed under its new name from where it was; a file that
 * shrank, or whose first bytes changed (truncated, rewritten, or its inode reused), is read again
 * from the start; a file no longer matched is forgotten. Everything before a file's
 * {@link TrackedFile#issuedUpTo()} is in exactly one place at each checkpoint: pending here, or
 * in a reader's split state, or already read into batches before the reader's barrier.
 *
 * <p>The appended lines of one file go to one reader (chosen by its identity), so that they are
 * read in order; a long stretch of lines (a large file found at start) is cut at line starts
 * and spread over all readers. It never tells a reader there is no more.
 */
public final class TailingEnumerator implements SplitEnumerator<FileSplit, EnumeratorState> {

    private static final Logger LOG = LoggerFactory.getLogger(TailingEnumerator.class);

    private final SplitEnumeratorContext<FileSplit> context;
    private final InputDiscovery discovery;
    private final FileScanner scanner;
    private final Map<String, TrackedFile> tracked = new LinkedHashMap<>();
    /** What the scans on the worker thread know of {@link #tracked}: a copy made on the coordinator thread. */
    private volatile Map<String, TrackedFile> trackedForScan = Map.of();
    private final List<Pending> pending = new ArrayList<>();
    private final Following following;
    /** Whether the next scan is the first of a run that resumed from nothing: where --start-at applies. */
    private boolean firstStart;
    /** Read by the metrics' reporter thread. */
    private volatile long truncations;
    private volatile int pendingCount;

    /** A split not yet handed out, and the reader it is for. */
    private record Pending(FileSplit split, int owner) {}

    public TailingEnumerator(SplitEnumeratorContext<FileSplit> context, InputDiscovery discovery, long splitSize,
            Following following, EnumeratorState restored) {
        this.context = context;
        this.following = following;
        this.firstStart = restored.trackedFiles().isEmpty() && restored.pendingSplits().isEmpty();
        this.discovery = discovery;
        this.scanner = new FileScanner(splitSize);
        for (TrackedFile file : restored.trackedFiles()) {
            tracked.put(file.fileKey(), file);
        }
        for (FileSplit split : restored.pendingSplits()) {
            pending.add(new Pending(split, owner(split.fileKey())));
        }
        trackedForScan = Map.copyOf(tracked);
    }

    @Override
    public void start() {
        SplitEnumeratorMetricGroup metrics = context.metricGroup();
        metrics.gauge("trackedFiles", () -> trackedForScan.size());
        metrics.gauge("truncations", () -> truncations);
        metrics.setUnassignedSplitsGauge(() -> (long) pendingCount);
        long interval = discovery.discoverInterval().toMillis();
        context.callAsync(() -> scanner.scan(discovery.currentFiles(), trackedForScan), this::apply, 0, interval);
    }

    /** Acts on a scan, on the coordinator thread. */
    void apply(List<FileScan> scans, @Nullable Throwable failure) {
        if (failure != null) {
            LOG.warn("cannot look at the inputs; trying again at the next scan", failure);
            return;
        }
        Set<String> seen = new HashSet<>();
        long now = System.currentTimeMillis();
        boolean atEnd = firstStart && following.startAtEnd();
        firstStart = false;
        for (FileScan scan : scans) {
            String key = identity(scan);
            if (!seen.add(key)) {
                continue;
            }
            TrackedFile known = tracked.get(key);
            if (!scan.readable()) {
                LOG.warn("cannot read {} now; trying again at the next scan", scan.file().path());
                continue;
            }
            if (known == null && following.ignoreOlderMillis() > 0
                    && scan.modified() < now - following.ignoreOlderMillis()) {
                continue;
            }
            long from = known == null ? 0 : known.issuedUpTo();
            if (known == null && atEnd) {
                from = Math.max(0, scan.lineEnd());
            }
            if (known != null && replaced(known, scan)) {
                truncations++;
                LOG.info("{} was truncated or replaced: reading it again from its start", scan.file().path());
                from = 0;
            }
            long upTo = from;
            if (scan.lineEnd() > from) {
                issue(scan, key, from, scan.lineEnd(), scan.searchedFrom() == from ? scan.cuts() : List.of());
                upTo = scan.lineEnd();
            }
            boolean renamed = known != null && (known.renamed() || !known.path().equals(scan.file().path()));
            long grownAt = known == null || known.size() != scan.size() ? now : known.grownAtMillis();
            if (renamed && upTo < scan.size() && now - grownAt >= following.rotateWaitMillis()) {
                // Rotated away and quiet: no line feed is coming; its last line is complete as it is.
                issue(scan, key, upTo, scan.size(), List.of());
                upTo = scan.size();
            }
            tracked.put(key, new TrackedFile(key, scan.file().path(), upTo, scan.prefixLength(), scan.prefixHash(),
                    scan.size(), grownAt, renamed));
        }
        tracked.keySet().retainAll(seen);
        trackedForScan = Map.copyOf(tracked);
        assignPending();
    }

    /** Whether the file under a known identity is no longer the file that was followed. */
    private static boolean replaced(TrackedFile known, FileScan scan) {
        return scan.size() < known.issuedUpTo() || scan.size() < known.prefixLength()
                || scan.knownPrefixHash() != known.prefixHash();
    }

    /** Device and inode where the file system has them; else the path, the only identity there is. */
    private static String identity(FileScan scan) {
        return scan.file().fileKey().isEmpty() ? scan.file().path() : scan.file().fileKey();
    }

    private void issue(FileScan scan, String key, long from, long to, List<Long> cuts) {
        int owner = owner(key);
        int parallelism = Math.max(1, context.currentParallelism());
        long start = from;
        int next = 0;
        List<Long> ends = new ArrayList<>(cuts);
        ends.add(to);
        for (long end : ends) {
            // A stretch cut in parts goes to all readers in turn; appended lines to the file's reader.
            int reader = ends.size() == 1 ? owner : (owner + next++) % parallelism;
            String path = scan.file().path();
            pending.add(new Pending(new FileSplit(path + "@" + start, path, scan.file().fileKey(), start, end, start,
                    scan.prefixLength(), scan.prefixHash()), reader));
            start = end;
        }
    }

    private int owner(String key) {
        return Math.floorMod(key.hashCode(), Math.max(1, context.currentParallelism()));
    }

    /** Hands the pending splits to their readers, or to another one if theirs is not there. */
    private void assignPending() {
        Set<Integer> readers = context.registeredReaders().keySet();
        if (readers.isEmpty() || pending.isEmpty()) {
            pendingCount = pending.size();
            return;
        }
        int fallback = readers.iterator().next();
        Map<Integer, List<FileSplit>> assignment = new TreeMap<>();
        for (Pending split : pending) {
            int reader = readers.contains(split.owner()) ? split.owner() : fallback;
            assignment.computeIfAbsent(reader, r -> new ArrayList<>()).add(split.split());
        }
        pending.clear();
        pendingCount = 0;
        context.assignSplits(new SplitsAssignment<>(assignment));
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        assignPending();
    }

    @Override
    public void addSplitsBack(List<FileSplit> splits, int subtaskId) {
        for (FileSplit split : splits) {
            pending.add(new Pending(split, subtaskId));
        }
        assignPending();
    }

    @Override
    public void addReader(int subtaskId) {
        assignPending();
    }

    @Override
    public EnumeratorState snapshotState(long checkpointId) {
        return new EnumeratorState(pending.stream().map(Pending::split).toList(), new ArrayList<>(tracked.values()));
    }

    /** Files found truncated or replaced in place, read again from their start (also a metric). */
    long truncations() {
        return truncations;
    }

    @Override
    public void close() throws IOException {}
}
