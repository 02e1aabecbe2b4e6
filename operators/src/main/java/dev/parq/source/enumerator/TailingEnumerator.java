package dev.parq.source.enumerator;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.annotation.Nullable;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerate.InputFile;
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
    private static final int UNLISTED_SCANS = 2;

    private final SplitEnumeratorContext<FileSplit> context;
    private final InputDiscovery discovery;
    private final FileScanner scanner;
    private final Map<String, TrackedFile> tracked = new LinkedHashMap<>();
    /** What the scans on the worker thread know of the followed files: made on the coordinator thread. */
    private volatile ScanBasis basis = new ScanBasis(0, Map.of(), Set.of());
    private final List<Pending> pending = new ArrayList<>();
    /**
     * Followed files missing from the last scans, and from how many in a row. A directory read
     * while a file in it is renamed may list it under neither name; taken for gone at once, it
     * would be read again from its start when it is listed again, so it ends only once missing
     * from {@link #UNLISTED_SCANS} scans, each made after the one before was acted on.
     */
    private final Map<String, Integer> unlisted = new HashMap<>();
    /**
     * Listed files that could not be read at the last scan (their permissions taken away): said
     * once when it starts and once when it ends, not at every scan.
     */
    private final Set<String> unreadable = new HashSet<>();
    private final Following following;
    private final CopyRecognition copies;
    /** Whether the next scan is the first of a run that resumed from nothing: where --start-at applies. */
    private boolean firstStart;
    private volatile boolean closed;
    private long lastSnapshot;
    private long lastCompleted;
    private final EnumeratorMetrics metrics = new EnumeratorMetrics();
    private final Backlog backlog;

    /** A split not yet handed out, and the reader it is for. */
    private record Pending(FileSplit split, int owner) {}

    /**
     * The followed files as a scan takes them, and the lengths at which it hashes the first bytes
     * of new files (to recognise copies); {@code version} counts the changes.
     */
    private record ScanBasis(long version, Map<String, TrackedFile> tracked, Set<Integer> copyLengths) {}

    /** A scan and the basis it was made on. */
    record Scanned(long basisVersion, List<FileScan> scans) {}

    public TailingEnumerator(SplitEnumeratorContext<FileSplit> context, InputDiscovery discovery, long splitSize,
            Following following, EnumeratorState restored) {
        this.context = context;
        this.following = following;
        this.firstStart = restored.trackedFiles().isEmpty() && restored.pendingSplits().isEmpty();
        this.discovery = discovery;
        this.scanner = new FileScanner(splitSize);
        this.backlog = new Backlog(context, metrics, splitSize, following.afterBacklog());
        // Long enough for a copy to show up beside its original, and for a rotated file's last write.
        long wait = following.rotateWaitMillis() + 2 * discovery.discoverInterval().toMillis();
        this.copies = new CopyRecognition(restored.releasedFiles(), wait);
        for (TrackedFile file : restored.trackedFiles()) {
            tracked.put(file.fileKey(), file);
        }
        for (FileSplit split : restored.pendingSplits()) {
            pending.add(new Pending(split, owner(split.fileKey())));
        }
        published();
    }

    @Override
    public void start() {
        metrics.register(context.metricGroup());
        backlog.found(unread(pending));
        long interval = discovery.discoverInterval().toMillis();
        context.callAsync(() -> {
            ScanBasis taken = basis;
            return new Scanned(taken.version(), scanner.scan(discovery.currentFiles(), taken.tracked(),
                    taken.copyLengths()));
        }, this::apply, 0, interval);
    }

    /**
     * Acts on a scan, on the coordinator thread, unless it was made on a basis since changed: the
     * scans run at a fixed rate on a worker thread, and one may start before the last one's result
     * was applied here; taken for current, it would see every file it read as new or rewritten.
     */
    void apply(Scanned scanned, @Nullable Throwable failure) {
        if (closed) {
            return;
        }
        if (failure != null) {
            if (ExceptionUtils.findThrowable(failure, InterruptedIOException.class).isPresent()) {
                // The job is ending and its worker threads are interrupted: nothing to say.
                LOG.debug("scan interrupted", failure);
            } else {
                LOG.warn("cannot look at the inputs; trying again at the next scan", failure);
            }
            return;
        }
        if (scanned.basisVersion() != basis.version()) {
            return;
        }
        apply(scanned.scans());
    }

    /** Whether the file of {@code key} could be read at the scan before: its warning is to be said. */
    private boolean becameUnreadable(String key) {
        return unreadable.add(key);
    }

    /** The version of the basis the next scan is made on. */
    long basisVersion() {
        return basis.version();
    }

    /** Acts on a scan made on the current basis. */
    void apply(List<FileScan> scans) {
        long now = System.currentTimeMillis();
        boolean atEnd = firstStart && following.startAtEnd();
        firstStart = false;
        // A scan only adds to the splits waiting; they are handed out once it is applied.
        int waiting = pending.size();
        Map<String, FileScan> listed = new LinkedHashMap<>();
        for (FileScan scan : scans) {
            // A file renamed while it was listed can be there twice: under its old name, no longer
            // readable as itself, and under its new one.
            listed.merge(identity(scan.file()), scan, (first, second) -> first.readable() ? first : second);
        }
        List<Map.Entry<String, FileScan>> fresh = new ArrayList<>();
        for (Map.Entry<String, FileScan> entry : listed.entrySet()) {
            TrackedFile known = tracked.get(entry.getKey());
            FileScan scan = entry.getValue();
            if (!scan.readable()) {
                if (becameUnreadable(entry.getKey())) {
                    LOG.warn("cannot read {}{}; its lines wait until it can be read again", scan.file().path(),
                            known == null ? "" : " past byte " + known.issuedUpTo());
                }
                continue;
            }
            if (unreadable.remove(entry.getKey())) {
                LOG.info("{} can be read again", scan.file().path());
            }
            if (known == null) {
                fresh.add(entry);
            } else if (replaced(known, scan)) {
                metrics.truncations++;
                LOG.info("{} was truncated or replaced: reading it again from its start", scan.file().path());
                copies.release(new ReleasedFile(known, now, lastSnapshot, false));
                follow(entry.getKey(), scan, null, 0, now);
            } else if (forgettable(known, scan, now)) {
                tracked.remove(entry.getKey());
            } else {
                follow(entry.getKey(), scan, known, known.issuedUpTo(), now);
            }
        }
        unlisted.keySet().retainAll(tracked.keySet());
        unreadable.retainAll(listed.keySet());
        for (Iterator<TrackedFile> it = tracked.values().iterator(); it.hasNext(); ) {
            TrackedFile known = it.next();
            if (listed.containsKey(known.fileKey())) {
                unlisted.remove(known.fileKey());
            } else if (unlisted.merge(known.fileKey(), 1, Integer::sum) >= UNLISTED_SCANS) {
                unlisted.remove(known.fileKey());
                it.remove();
                if (Files.isDirectory(Path.of(known.path()))) {
                    LOG.warn("{} is a directory now: the file followed there is not read any more", known.path());
                }
                copies.release(new ReleasedFile(known, now, lastSnapshot, true));
            }
        }
        // New files are compared with the files followed before this scan, not with one another: two
        // files found together are two files, however alike they start.
        List<TrackedFile> followed = List.copyOf(tracked.values());
        for (Map.Entry<String, FileScan> entry : fresh) {
            start(entry.getKey(), entry.getValue(), followed, atEnd, now);
        }
        copies.retainParked(listed.keySet());
        for (ReleasedFile ended : copies.expire(now, lastCompleted)) {
            if (ended.unread() > 0) {
                metrics.bytesLost += ended.unread();
                LOG.warn("{} {} before bytes {} to {} of it were read: they are lost", ended.file().path(),
                        ended.gone() ? "was deleted or moved out of the inputs" : "was truncated",
                        ended.file().issuedUpTo(), ended.file().size());
            }
        }
        published();
        backlog.found(unread(pending.subList(waiting, pending.size())));
        assignPending();
    }

    /** Starts on a file not followed yet: from its start, its end, or where the file it is a copy of was. */
    private void start(String key, FileScan scan, List<TrackedFile> followed, boolean atEnd, long now) {
        if (tooOld(scan, now)) {
            return;
        }
        CopyRecognition.Verdict verdict = copies.judge(key, scan, followed, now);
        if (verdict instanceof CopyRecognition.Park) {
            return;
        }
        long from = atEnd ? Math.max(0, scan.lineEnd()) : 0;
        if (verdict instanceof CopyRecognition.Adopt adopt) {
            metrics.copies++;
            from = adopt.from();
            LOG.info("{} is a copy of {} (copy-truncate rotation): reading it from byte {}", scan.file().path(),
                    adopt.original().file().path(), from);
        }
        follow(key, scan, null, from, now);
    }

    /** Hands out what {@code scan} found after {@code from} and records how far the file now is. */
    private void follow(String key, FileScan scan, @Nullable TrackedFile known, long from, long now) {
        long upTo = from;
        if (scan.lineEnd() > from) {
            issue(scan, key, from, scan.lineEnd(), scan.searchedFrom() == from ? scan.cuts() : List.of());
            upTo = scan.lineEnd();
        }
        boolean moved = known != null && !known.path().equals(scan.file().path());
        if (moved && !known.renamed()) {
            metrics.rotations++;
        }
        boolean renamed = known != null && (known.renamed() || moved);
        long grownAt = known == null || known.size() != scan.size() ? now : known.grownAtMillis();
        if (renamed && upTo < scan.size() && now - grownAt >= following.rotateWaitMillis()) {
            // Rotated away and quiet: no line feed is coming; its last line is complete as it is.
            issue(scan, key, upTo, scan.size(), List.of());
            upTo = scan.size();
        }
        tracked.put(key, new TrackedFile(key, scan.file().path(), upTo, scan.prefixLength(), scan.prefixHash(),
                scan.size(), grownAt, renamed));
    }

    /**
     * Whether a file is read to its end and has not been modified for the ignore-older time: it is
     * forgotten, and not started on again while it stays that old.
     */
    private boolean forgettable(TrackedFile known, FileScan scan, long now) {
        return tooOld(scan, now) && known.issuedUpTo() >= scan.size();
    }

    /** Whether a file was last modified longer ago than the ignore-older time, where one is set. */
    private boolean tooOld(FileScan scan, long now) {
        return following.ignoreOlderMillis() > 0 && scan.modified() < now - following.ignoreOlderMillis();
    }

    /** Makes what the coordinator thread changed visible to the scans and the metrics. */
    private void published() {
        basis = new ScanBasis(basis.version() + 1, Map.copyOf(tracked), Set.copyOf(copies.lengths(tracked.values())));
        long behind = 0;
        for (TrackedFile file : tracked.values()) {
            behind += Math.max(0, file.size() - file.issuedUpTo());
        }
        behind += unread(pending);
        metrics.published(tracked.size(), pending.size(), copies.parkedCount(), behind);
    }

    private static long unread(List<Pending> splits) {
        long bytes = 0;
        for (Pending split : splits) {
            bytes += split.split().unread();
        }
        return bytes;
    }

    /** Whether the file under a known identity is no longer the file that was followed. */
    private static boolean replaced(TrackedFile known, FileScan scan) {
        return scan.size() < known.issuedUpTo() || scan.size() < known.prefixLength()
                || scan.knownPrefixHash() != known.prefixHash();
    }

    /** Device and inode where the file system has them; else the path, the only identity there is. */
    private static String identity(InputFile file) {
        return file.fileKey().isEmpty() ? file.path() : file.fileKey();
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

    /**
     * Hands the pending splits to their readers; a split whose reader is not registered yet (at
     * the start, or while it restarts) waits for it. Given to another, the first scan's splits
     * of a large file would all go to the first reader to register, and be read by it alone.
     */
    private void assignPending() {
        Set<Integer> readers = context.registeredReaders().keySet();
        if (readers.isEmpty() || pending.isEmpty()) {
            backlog.settle(pending.isEmpty());
            return;
        }
        Map<Integer, List<FileSplit>> assignment = new TreeMap<>();
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending split = it.next();
            if (readers.contains(split.owner())) {
                assignment.computeIfAbsent(split.owner(), r -> new ArrayList<>()).add(split.split());
                it.remove();
            }
        }
        metrics.unassigned = pending.size();
        if (!assignment.isEmpty()) {
            context.assignSplits(new SplitsAssignment<>(assignment));
            assignment.forEach((reader, splits) -> backlog.assigned(reader, splits.size()));
        }
        backlog.settle(pending.isEmpty());
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        assignPending();
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof SplitsRead read) {
            backlog.read(subtaskId, read.received());
            backlog.settle(pending.isEmpty());
        } else if (event instanceof SplitsRestored restored) {
            backlog.restored(subtaskId, restored.bytes());
        }
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
        backlog.registered(subtaskId);
        assignPending();
    }

    @Override
    public EnumeratorState snapshotState(long checkpointId) {
        lastSnapshot = Math.max(lastSnapshot, checkpointId);
        return new EnumeratorState(pending.stream().map(Pending::split).toList(), new ArrayList<>(tracked.values()),
                copies.released());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        lastCompleted = Math.max(lastCompleted, checkpointId);
    }

    /** What the enumerator counts, also reported as metrics. */
    EnumeratorMetrics metrics() {
        return metrics;
    }

    /** Whether it reads a backlog. */
    boolean readingBacklog() {
        return backlog.reading();
    }

    @Override
    public void close() throws IOException {
        // A scan that ends after this is not applied (nor its files' troubles logged): the job is over.
        closed = true;
    }
}
