package dev.parq.source.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.io.Compression;
import dev.parq.io.CorruptInputException;
import dev.parq.io.InputChangedException;
import dev.parq.io.LineStream;
import dev.parq.io.Lines;
import dev.parq.io.Locations;
import dev.parq.io.RangeReader;
import dev.parq.io.StandardInput;
import dev.parq.json.LineFeeds;
import dev.parq.source.FollowingMetrics;
import dev.parq.source.enumerator.SplitsRead;
import dev.parq.source.enumerator.SplitsRestored;
import dev.parq.source.split.FileSplit;

/**
 * Reads its splits one chunk of whole lines at a time, through a {@link RangeReader} (mapped for a
 * local file), (about {@code chunkSize} bytes,
 * ended at the last {@code '\n'} in the window) and emitting it as a {@link LineChunk}.
 *
 * <p>Only one chunk is mapped at any time: the previous one is unmapped when the next poll comes,
 * which is after the chained parser has finished with it. Resident mapped pages therefore stay at
 * about one chunk per reader, whatever the size of the input.
 *
 * <p>A compressed file, and standard input, cannot be mapped: their split is the whole input, read
 * as a {@link LineStream} into one reused buffer of about a chunk, with offsets in the stream as
 * decompressed.
 */
public final class NdjsonSourceReader implements SourceReader<LineChunk, FileSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(NdjsonSourceReader.class);
    /** How many times the file of a split of appended lines is looked for before its lines are lost. */
    private static final int FIND_ATTEMPTS = 3;

    private final SourceReaderContext context;
    private final long chunkSize;
    private final Deque<FileSplit> assigned = new ArrayDeque<>();
    private final Counter bytesIn;
    private final Counter bytesLost;
    private final boolean following;
    /** Bytes of the assigned splits not read yet; read by the metrics' reporter thread. */
    private volatile long pendingBytes;
    private final UnreadAge unreadAge = new UnreadAge();
    private final SplitOutputs outputs;

    private FileSplit current;
    private RangeReader file;
    /** The lines of the current split when it is read as a stream, else null. */
    private Lines lines;
    private long position;
    /** Of a split read as a stream: its bytes, decompressed, handed on so far. */
    private long streamed;
    private boolean noMoreSplits;
    private boolean splitRequested;
    /** Splits received from the enumerator since the start, and how many of them it was last told were read. */
    private long received;
    private long toldRead = -1;
    private boolean started;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    public NdjsonSourceReader(SourceReaderContext context, long chunkSize) {
        this(context, chunkSize, false);
    }

    /**
     * With {@code following}, the splits are appended lines of files that are still being written
     * and rotated: a split's file found under another name (renamed by rotation since the split was
     * issued) is read there, and one since truncated or deleted is skipped with a warning instead
     * of failing the job, since its lines are gone. Splits of objects (not local files) are read
     * as listed; an object written again or deleted since its split was cut is skipped with a
     * warning too, and one whose compressed stream is damaged is read up to the damage, which is
     * handed on for the rejected output.
     */
    public NdjsonSourceReader(SourceReaderContext context, long chunkSize, boolean following) {
        this.context = context;
        this.chunkSize = chunkSize;
        this.following = following;
        this.bytesIn = context.metricGroup().getIOMetricGroup().getNumBytesInCounter();
        this.bytesLost = context.metricGroup().counter(FollowingMetrics.BYTES_LOST);
        context.metricGroup().setPendingBytesGauge(() -> pendingBytes);
        unreadAge.register(context.metricGroup());
        this.outputs = new SplitOutputs(context.metricGroup());
    }

    @Override
    public void start() {
        started = true;
        if (following && pendingBytes > 0) {
            context.sendSourceEventToCoordinator(new SplitsRestored(pendingBytes));
        }
        requestSplit();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<LineChunk> output) throws Exception {
        InputStatus status = poll(output);
        // Flink keeps an output and a metric group per split until the reader lets go of it: kept,
        // an ingest's stream of small splits would fill the heap.
        outputs.release(output);
        return status;
    }

    private InputStatus poll(ReaderOutput<LineChunk> output) throws Exception {
        releaseMapping();
        while (true) {
            if (current == null && !openNextSplit(output)) {
                if (noMoreSplits) {
                    return InputStatus.END_OF_INPUT;
                }
                requestSplit();
                toldRead();
                available = new CompletableFuture<>();
                return InputStatus.NOTHING_AVAILABLE;
            }
            if (lines != null ? emitStreamed(output) : position < current.end() && emitChunk(output)) {
                return InputStatus.MORE_AVAILABLE;
            }
            finishSplit();
        }
    }

    private boolean openNextSplit(ReaderOutput<LineChunk> output) throws IOException {
        while (true) {
            FileSplit next = assigned.poll();
            if (next == null) {
                unreadAge.finished();
                return false;
            }
            long arrival = unreadAge.taken();
            try {
                if (following && Locations.isLocal(next.path()) ? openFollowed(next) : openListed(next)) {
                    unreadAge.reading(arrival);
                    return true;
                }
            } catch (CorruptInputException | InputChangedException e) {
                if (!following && e instanceof CorruptInputException) {
                    throw new SuppressRestartsException(e);
                } else if (!following) {
                    throw e;
                }
                closeSplit();
                if (e instanceof CorruptInputException corrupt) {
                    damaged(output, next, 0, corrupt);
                } else {
                    LOG.warn("{}; the rest of it is skipped", e.getMessage());
                }
                dropped(next);
            }
        }
    }

    /** Opens a split of a conversion: its file must be the one listed, and as long. */
    private boolean openListed(FileSplit split) throws IOException {
        if (StandardInput.names(split.path())) {
            current = split;
            lines = StreamedSplits.standardInput(split, chunkSize);
            return true;
        }
        RangeReader opened = ListedFiles.open(split);
        use(split, split.path(), opened);
        // A compressed file is one split from byte 0 (SplitPlanner, ObjectEnumerator): one that
        // starts further on is of a plain file, and its first bytes need no request to say so.
        Compression compression = split.start() > 0 ? Compression.NONE : Compression.of(split.path(), opened);
        if (compression.compressed()) {
            lines = StreamedSplits.compressed(split, opened, compression, chunkSize);
            streamed = split.streamed();
        } else {
            // emitChunk asks for the split's windows one after the other, each from the last one's last line feed.
            opened.readInOrder(split.offset(), split.end(), (int) Math.min(chunkSize, RangeReader.MAX_WINDOW));
        }
        return true;
    }

    /**
     * Opens a split of appended lines where its file is now, checked through the file opened: a
     * rotation between finding the file and opening it, or while its directory was listed, gives
     * another file or none, so it is looked for again before its lines are taken for gone.
     */
    private boolean openFollowed(FileSplit split) throws IOException {
        boolean found = false;
        for (int attempt = 0; attempt < FIND_ATTEMPTS; attempt++) {
            String path = FollowedFiles.whereNow(split);
            if (path == null) {
                continue;
            }
            found = true;
            RangeReader opened;
            try {
                opened = RangeReader.open(path);
            } catch (NoSuchFileException renamed) {
                continue;
            }
            boolean holds;
            try {
                holds = FollowedFiles.holds(split, opened);
            } catch (IOException | RuntimeException e) {
                opened.close();
                throw e;
            }
            if (holds) {
                use(split, path, opened);
                return true;
            }
            opened.close();
        }
        LOG.warn("{} {} before bytes {} to {} of it were read", split.path(), found ? "was truncated" : "is gone",
                split.offset(), split.end());
        dropped(split);
        return false;
    }

    /**
     * Tells of a followed object whose compressed stream is damaged, its lines from {@code lostFrom}
     * of the decompressed stream on lost: in the log, and as a chunk that the parser turns into a
     * record of the rejected output. The caller is done with the split in the same poll, so that no
     * checkpoint holds both that record and the split, which a restore would read to the damage and
     * tell of again.
     */
    private void damaged(ReaderOutput<LineChunk> output, FileSplit split, long lostFrom, CorruptInputException damage) {
        LOG.warn("{}; its lines from byte {} of the decompressed stream on are skipped, and the object is named in"
                + " _rejected/", damage.getMessage(), lostFrom);
        output.collect(LineChunk.damaged(split.path(), lostFrom, damage.reason()));
    }

    private void use(FileSplit split, String path, RangeReader opened) {
        current = path.equals(split.path()) ? split : split.movedTo(path);
        position = split.offset();
        file = opened;
    }

    /** Emits the next chunk of the streamed split; false at the end of its stream. */
    private boolean emitStreamed(ReaderOutput<LineChunk> output) throws IOException {
        ByteBuffer bytes;
        try {
            bytes = lines.next();
        } catch (CorruptInputException corrupt) {
            if (!following) {
                throw new SuppressRestartsException(corrupt);
            }
            // The lines before the damage are read and go on to be committed; the split ends here.
            damaged(output, current, streamed, corrupt);
            return false;
        }
        if (bytes == null) {
            return false;
        }
        int length = bytes.remaining();
        output.collect(new LineChunk(
                StandardInput.names(current.path()) ? StandardInput.LABEL : current.path(), lines.chunkOffset(), bytes,
                lines.compression().compressed()));
        streamed = lines.chunkOffset() + length;
        bytesIn.inc(length);
        return true;
    }

    private boolean emitChunk(ReaderOutput<LineChunk> output) throws IOException {
        long end = current.end();
        long window = Math.min(chunkSize, end - position);
        while (true) {
            ByteBuffer bytes;
            try {
                bytes = file.window(position, (int) window);
            } catch (InputChangedException changed) {
                if (!following) {
                    throw changed;
                }
                // A followed file truncated under its reader: its lines past the cut are gone.
                LOG.warn("{} was truncated before bytes {} to {} of it were read", current.path(), position, end);
                lost(current.withOffset(position));
                return false;
            }
            int length = (int) window;
            try {
                if (position + window < end) {
                    length = LineFeeds.afterLast(bytes, length);
                }
                if (length > 0) {
                    // The chained parser reads the mapped bytes inside this call.
                    output.collect(new LineChunk(current.path(), position, bytes.slice(0, length)));
                }
            } catch (InternalError fault) {
                // A mapped page the file no longer has: the JVM turns the fault into this error,
                // which Flink would take for a broken JVM and end the process without a word. The
                // parser may hold part of a line: the task fails (an ingest restarts from its last
                // checkpoint and finds the file truncated when it opens the split again).
                long size = file.size();
                if (size < position + window) {
                    throw InputChangedException.truncated(current.path(), position, end, size);
                }
                throw fault;
            }
            if (length > 0) {
                bytesIn.inc(length);
                pendingBytes -= length;
                position += length;
                return true;
            }
            // No line ends inside the window: the line is longer than a chunk; map more of it.
            releaseMapping();
            if (window >= RangeReader.MAX_WINDOW) {
                throw new IOException("line at byte " + position + " of " + current.path()
                        + " is longer than " + RangeReader.MAX_WINDOW + " bytes, the most one line may have");
            }
            window = Math.min(Math.min(window * 2, RangeReader.MAX_WINDOW), end - position);
        }
    }

    /** A split passed over without being opened: its bytes are lost, and the reader is done with it. */
    private void dropped(FileSplit split) {
        lost(split);
        outputs.finished(split);
    }

    private void lost(FileSplit split) {
        bytesLost.inc(split.unread());
        pendingBytes -= pending(split);
    }

    /** The bytes of {@code split} still to read, its share of them for a split that is a share of a stream. */
    private static long pending(FileSplit split) {
        long left = split.unread();
        return left / split.shares() + (split.share() < left % split.shares() ? 1 : 0);
    }

    private void finishSplit() throws IOException {
        outputs.finished(current);
        if (lines != null) {
            pendingBytes -= pending(current);
        }
        closeSplit();
        unreadAge.finished();
    }

    /** Closes what the current split has open, if anything, and forgets it. */
    private void closeSplit() throws IOException {
        try {
            if (lines != null) {
                lines.close();
            }
        } finally {
            lines = null;
            try {
                if (file != null) {
                    file.close();
                }
            } finally {
                file = null;
                current = null;
            }
        }
    }

    private void releaseMapping() {
        if (file != null) {
            file.releaseWindow();
        }
    }

    /** Tells a following enumerator, once per split received, that all it gave is read. */
    private void toldRead() {
        if (following && toldRead != received) {
            toldRead = received;
            context.sendSourceEventToCoordinator(new SplitsRead(received));
        }
    }

    private void requestSplit() {
        if (!splitRequested && !noMoreSplits) {
            splitRequested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public List<FileSplit> snapshotState(long checkpointId) {
        List<FileSplit> state = new ArrayList<>(assigned.size() + 1);
        if (current != null) {
            // A stream of one reader resumes after the lines it handed on; a share of one, or standard
            // input, only from its start (conversions: batch mode takes no checkpoints).
            boolean resumable = current.shares() == 1 && !StandardInput.names(current.path());
            state.add(lines == null ? current.withOffset(position)
                    : resumable ? current.withStreamed(streamed) : current);
        }
        state.addAll(assigned);
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (current != null || !assigned.isEmpty() || noMoreSplits) {
            return CompletableFuture.completedFuture(null);
        }
        return available;
    }

    @Override
    public void addSplits(List<FileSplit> splits) {
        if (started) {
            // Restored splits come before the start.
            received += splits.size();
        }
        assigned.addAll(splits);
        unreadAge.arrived(splits.size());
        long added = 0;
        for (FileSplit split : splits) {
            added += pending(split);
            outputs.added(split);
        }
        pendingBytes += added;
        splitRequested = false;
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() throws Exception {
        if (lines != null) {
            lines.close();
        }
        if (file != null) {
            file.close();
        }
    }
}
