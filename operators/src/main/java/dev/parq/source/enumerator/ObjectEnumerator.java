package dev.parq.source.enumerator;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.annotation.Nullable;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.io.Compression;
import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.KeyFloor;
import dev.parq.source.enumerate.Listing;
import dev.parq.source.split.FileSplit;

/**
 * Follows a prefix of an object store: every discover interval it lists the objects its inputs
 * match and hands out each new one, whole, once: a plain object cut in line-snapped splits of the
 * split size (read by range, in parallel), a compressed one as one split (streamed). Objects do not
 * grow: a key written again is a new object, read again whole.
 *
 * <p>Which objects were taken is kept in bounded state ({@link ObjectHorizon}): the objects
 * modified within the look-back window of the newest, not every object ever read. Where keys sort
 * in the order objects land, a listing passes over the folders wholly below the lowest key within
 * that window, so that it lists the recent folders, not the history. Splits go to
 * whichever reader asks, so that a reader with less to do takes more; it never tells a reader
 * there is no more. Each split names the version of its object, and its reader checks it.
 */
public final class ObjectEnumerator implements SplitEnumerator<FileSplit, EnumeratorState> {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectEnumerator.class);

    private final SplitEnumeratorContext<FileSplit> context;
    private final InputDiscovery discovery;
    private final SplitPlanner planner;
    private final long splitSize;
    private final Following following;
    private final ObjectHorizon horizon;
    private final Deque<FileSplit> pending;
    /** Readers that asked for a split when there was none. */
    private final Set<Integer> waiting = new TreeSet<>();
    /** What the listings on the worker thread judge against: made on the coordinator thread. */
    private volatile Basis basis;
    private boolean firstStart;
    /** Whether the last listing took longer than the discover interval: said once, not at each. */
    private boolean slowListing;
    private volatile boolean closed;
    private final EnumeratorMetrics metrics = new EnumeratorMetrics();
    private final Backlog backlog;

    /** The horizon a listing is judged against, whether it is a first start's, and its version. */
    private record Basis(long version, ObjectHorizon.Basis objects, boolean firstStart) {}

    /** A listing, the objects in it that are new, and their splits. */
    record Listed(long basisVersion, KeyFloor from, List<InputFile> listed, int folders, List<InputFile> fresh,
            List<FileSplit> splits, long tookMillis) {}

    public ObjectEnumerator(SplitEnumeratorContext<FileSplit> context, InputDiscovery discovery, long splitSize,
            Following following, EnumeratorState restored) {
        this.context = context;
        this.discovery = discovery;
        this.splitSize = splitSize;
        this.planner = new SplitPlanner(splitSize);
        this.backlog = new Backlog(context, metrics, splitSize, following.afterBacklog());
        this.following = following;
        this.horizon = new ObjectHorizon(restored.objects(), following.lookBackMillis(), following.keysInTimeOrder());
        this.pending = new ArrayDeque<>(restored.pendingSplits());
        this.firstStart = restored.objects().newestMillis() == Long.MIN_VALUE && pending.isEmpty();
        this.basis = new Basis(0, horizon.basis(), firstStart);
        published();
    }

    @Override
    public void start() {
        metrics.register(context.metricGroup());
        backlog.found(bytes(pending));
        context.callAsync(this::list, this::apply, 0, discovery.discoverInterval().toMillis());
    }

    /** Lists the objects and cuts the new ones into splits, on a worker thread. */
    Listed list() throws IOException {
        Basis taken = basis;
        long began = System.nanoTime();
        Listing listing = discovery.currentObjects(taken.objects().floor());
        List<InputFile> listed = listing.objects();
        long tookMillis = (System.nanoTime() - began) / 1_000_000;
        List<InputFile> fresh = new ArrayList<>();
        List<FileSplit> splits = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (InputFile object : listed) {
            if (!taken.objects().isNew(object) || tooOld(object, now)) {
                continue;
            }
            fresh.add(object);
            if (!(taken.firstStart() && following.startAtEnd())) {
                splits.addAll(splits(object));
            }
        }
        return new Listed(taken.version(), taken.objects().floor(), listed, listing.folders(), fresh, splits,
                tookMillis);
    }

    /**
     * The splits of an object. One no larger than a split, or named as compressed, is one split,
     * without a request to the store; a larger one is cut where lines start, as a conversion cuts
     * it. The version in the id tells the splits of an object written again from the first ones.
     */
    private List<FileSplit> splits(InputFile object) throws IOException {
        if (object.length() == 0) {
            return List.of();
        }
        List<FileSplit> cut = object.length() <= splitSize || Compression.namedCompressed(object.path())
                ? List.of(new FileSplit(object.path() + "@0", object.path(), object.fileKey(), 0, object.length()))
                : planner.plan(object);
        List<FileSplit> named = new ArrayList<>(cut.size());
        for (FileSplit split : cut) {
            named.add(new FileSplit(split.splitId() + "/" + object.fileKey(), split.path(), split.fileKey(),
                    split.start(), split.end()));
        }
        return named;
    }

    /** Whether an object was modified longer ago than the ignore-older time, where one is set. */
    private boolean tooOld(InputFile object, long now) {
        return following.ignoreOlderMillis() > 0 && object.modifiedMillis() < now - following.ignoreOlderMillis();
    }

    /**
     * Acts on a listing, on the coordinator thread, unless it was judged against a horizon since
     * moved: the next listing then judges again.
     */
    void apply(Listed listing, @Nullable Throwable failure) {
        if (closed) {
            return;
        }
        if (failure != null) {
            if (ExceptionUtils.findThrowable(failure, InterruptedIOException.class).isPresent()) {
                LOG.debug("listing interrupted", failure);
            } else {
                LOG.warn("cannot list the inputs; trying again at the next listing", failure);
            }
            return;
        }
        if (listing.basisVersion() != basis.version()) {
            return;
        }
        long interval = discovery.discoverInterval().toMillis();
        if (firstStart || listing.tookMillis() > interval && !slowListing) {
            // Unless keys sort in time order, the prefix is listed whole each time: its cost grows
            // with the objects kept under it.
            LOG.info("listing the inputs took {} ms for {} objects in {} folders{}", listing.tookMillis(),
                    listing.listed().size(), listing.folders(),
                    listing.tookMillis() > interval ? ", longer than the discover interval (" + interval + " ms)" : "");
        } else {
            LOG.debug("listing the inputs took {} ms for {} objects in {} folders", listing.tookMillis(),
                    listing.listed().size(), listing.folders());
        }
        slowListing = listing.tookMillis() > interval;
        for (InputFile object : listing.fresh()) {
            SeenObject before = horizon.recent(object.path());
            if (before != null) {
                metrics.objectsRewritten++;
                LOG.warn("{} was written again ({}, was {}): reading the new object whole", object.path(),
                        object.fileKey(), before.version());
            }
        }
        long below = horizon.horizon();
        long late = horizon.taken(listing.listed(), listing.fresh(), listing.from());
        if (late > 0) {
            metrics.lateObjects += late;
            LOG.warn("{} object(s) turned up modified before {} ms since the epoch, a look-back ({} ms) older than"
                    + " the newest object: taken as read and not read; a longer look-back covers uploads that"
                    + " complete that late", late, below, following.lookBackMillis());
        }
        pending.addAll(listing.splits());
        firstStart = false;
        published();
        backlog.found(bytes(listing.splits()));
        assignWaiting();
    }

    private void published() {
        basis = new Basis(basis == null ? 0 : basis.version() + 1, horizon.basis(), firstStart);
        metrics.published(horizon.recentCount(), pending.size(), 0, bytes(pending));
    }

    private static long bytes(Collection<FileSplit> splits) {
        long bytes = 0;
        for (FileSplit split : splits) {
            bytes += split.unread();
        }
        return bytes;
    }

    private void assignWaiting() {
        for (Iterator<Integer> it = waiting.iterator(); it.hasNext() && !pending.isEmpty(); ) {
            int reader = it.next();
            it.remove();
            if (context.registeredReaders().containsKey(reader)) {
                context.assignSplit(pending.poll(), reader);
                backlog.assigned(reader, 1);
            }
        }
        metrics.unassigned = pending.size();
        backlog.settle(pending.isEmpty());
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        if (!context.registeredReaders().containsKey(subtaskId)) {
            return;
        }
        FileSplit next = pending.poll();
        if (next == null) {
            waiting.add(subtaskId);
        } else {
            context.assignSplit(next, subtaskId);
            backlog.assigned(subtaskId, 1);
        }
        metrics.unassigned = pending.size();
        backlog.settle(pending.isEmpty());
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
        for (int i = splits.size() - 1; i >= 0; i--) {
            pending.addFirst(splits.get(i));
        }
        assignWaiting();
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves when they are idle.
        backlog.registered(subtaskId);
    }

    @Override
    public EnumeratorState snapshotState(long checkpointId) {
        return new EnumeratorState(List.copyOf(pending), List.of(), List.of(), horizon.snapshot());
    }

    /** What the enumerator counts, also reported as metrics. */
    EnumeratorMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() throws IOException {
        closed = true;
    }
}
