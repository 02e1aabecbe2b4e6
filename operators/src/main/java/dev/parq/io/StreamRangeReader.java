package dev.parq.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * A file of a Flink file system other than the local one: windows are read into one direct buffer,
 * kept and reused while windows fit it, so that a reader holds one window's bytes at a time here too.
 *
 * <p>Windows read in order ({@link #readInOrder}) are read ahead: a thread of this reader's reads
 * the range's next bytes (up to about a window more) on a stream of its own while the caller parses
 * the last window, so that a store's answer time and the parse overlap instead of adding up; the
 * part of the last window that the next one starts with (a line cut by the window's end) is kept,
 * not read again.
 */
final class StreamRangeReader implements RangeReader {

    /** What the read-ahead thread reads at a time: small enough to hand bytes over early. */
    private static final int AHEAD_BLOCK = 1 << 20;
    /** The most blocks read ahead, however large the windows: 64 MiB. */
    private static final int AHEAD_BLOCKS_MAX = 64;

    private final Path path;
    private final FileSystem fileSystem;
    /** For reads by position, opened at the first: a split read in order needs none. */
    private final OpenedAtFirstRead in;
    /** Asked for once: an object does not change under its key; a new version is another object. */
    private FileStatus status;
    private ByteBuffer buffer;
    private byte[] transfer;
    /**
     * Where the buffer's bytes start in the file (-1 while it holds none), and how many it holds;
     * while reading ahead, the read-ahead's next byte is the one after them.
     */
    private long windowAt = -1;
    private int held;
    /** The range read in order (-1 for none), and the windows' size. */
    private long orderFrom = -1;
    private long orderTo = -1;
    private int orderWindow;
    /** The range's bytes from the end of the buffer's on, read by a thread; null when not reading ahead. */
    private ReadAhead ahead;

    StreamRangeReader(String location) throws IOException {
        this(new Path(location), new Path(location).getFileSystem());
    }

    StreamRangeReader(Path path, FileSystem fileSystem) throws IOException {
        this.path = path;
        this.fileSystem = fileSystem;
        this.in = new OpenedAtFirstRead(fileSystem, path);
    }

    private FileStatus status() throws IOException {
        if (status == null) {
            status = fileSystem.getFileStatus(path);
        }
        return status;
    }

    @Override
    public boolean readsAreRequests() {
        return true;
    }

    @Override
    public long size() throws IOException {
        return status().getLen();
    }

    @Override
    public long lastModified() throws IOException {
        return status().getModificationTime();
    }

    /** The object's version ({@link ObjectVersion}), which splits of it were cut from. */
    @Override
    public String fileKey() throws IOException {
        return ObjectVersion.of(status());
    }

    @Override
    public int read(long position, byte[] into, int offset, int length) throws IOException {
        return in.read(position, into, offset, length);
    }

    @Override
    public void readInOrder(long from, long to, int window) {
        stopReadingAhead();
        orderFrom = from;
        orderTo = to;
        orderWindow = window;
        if (from < to) {
            readAheadFrom(from);
        }
    }

    @Override
    public ByteBuffer window(long position, int length) throws IOException {
        boolean inOrder = orderFrom >= 0 && position >= orderFrom && position + length <= orderTo;
        // The window goes on where the read-ahead is: the bytes of the last window from position on
        // are kept, the rest comes from the thread.
        boolean goesOn = inOrder && ahead != null && windowAt >= 0 && position >= windowAt
                && position <= windowAt + held;
        int kept = goesOn ? (int) (windowAt + held - position) : 0;
        if (buffer == null || buffer.capacity() < length) {
            ByteBuffer larger = ByteBuffer.allocateDirect(length);
            if (kept > 0) {
                larger.put(buffer.duplicate().limit(held).position((int) (position - windowAt)));
            }
            buffer = larger;
        } else if (kept > 0) {
            buffer.limit(held).position((int) (position - windowAt));
            buffer.compact();
        } else {
            buffer.clear();
        }
        // A window shorter than the bytes kept (after a long line's larger one) takes their start.
        buffer.position(Math.min(kept, length)).limit(length);
        windowAt = -1;
        held = 0;
        if (inOrder) {
            if (!goesOn) {
                readAheadFrom(position);
            }
            fillAhead(position, length);
        } else {
            stopReadingAhead();
            fillDirectly(position, length);
        }
        windowAt = position;
        held = Math.max(kept, length);
        return buffer.flip().asReadOnlyBuffer();
    }

    /**
     * Starts the thread reading the ordered range from {@code position}, about a window ahead. The
     * thread opens its stream itself: the store's answer to that is waited for there too.
     */
    private void readAheadFrom(long position) {
        stopReadingAhead();
        OpenedAtFirstRead own = new OpenedAtFirstRead(fileSystem, path);
        InputStream range = new PositionedStream(own, position, orderTo, own);
        int blocks = Math.min(AHEAD_BLOCKS_MAX, Math.max(2, orderWindow / AHEAD_BLOCK + 1));
        ahead = ReadAhead.of(range, AHEAD_BLOCK, blocks, path.toString());
        windowAt = position;
        held = 0;
    }

    /** Reads by position of a stream opened at the first read, by the thread that reads. */
    private static final class OpenedAtFirstRead implements PositionedStream.Source, Closeable {
        private final FileSystem fileSystem;
        private final Path path;
        private PositionedReads reads;

        OpenedAtFirstRead(FileSystem fileSystem, Path path) {
            this.fileSystem = fileSystem;
            this.path = path;
        }

        @Override
        public int read(long position, byte[] into, int offset, int length) throws IOException {
            if (reads == null) {
                reads = new PositionedReads(fileSystem, path);
            }
            return reads.read(position, into, offset, length);
        }

        @Override
        public void close() throws IOException {
            if (reads != null) {
                reads.close();
            }
        }
    }

    /** Fills the buffer to its limit from the read-ahead, whose next byte is the buffer's next. */
    private void fillAhead(long position, int length) throws IOException {
        while (buffer.hasRemaining()) {
            if (ahead.read(buffer) < 0) {
                throw ended(position + buffer.position(), position, length);
            }
        }
    }

    private void fillDirectly(long position, int length) throws IOException {
        if (transfer == null) {
            transfer = new byte[64 << 10];
        }
        long at = position;
        while (buffer.hasRemaining()) {
            int n = read(at, transfer, 0, Math.min(transfer.length, buffer.remaining()));
            if (n < 0) {
                throw ended(at, position, length);
            }
            buffer.put(transfer, 0, n);
            at += n;
        }
    }

    private IOException ended(long at, long position, int length) {
        return new IOException(path + " ended at byte " + at + ", before the " + length
                + " bytes asked for from byte " + position);
    }

    private void stopReadingAhead() {
        if (ahead != null) {
            ahead.close();
            ahead = null;
        }
    }

    @Override
    public void releaseWindow() {
        // The buffer is kept for the next window; a larger window replaces it.
    }

    @Override
    public void close() throws IOException {
        stopReadingAhead();
        in.close();
    }
}
