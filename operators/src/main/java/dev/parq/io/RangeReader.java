package dev.parq.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Random access to the bytes of one input file: the one way the split planner, the line snapper,
 * the schema sampler and the source reader read input. A local file is memory-mapped (no copy, the
 * page cache is the buffer); a file of any other scheme is read through Flink's {@code FileSystem},
 * so that an input can be wherever Flink can read.
 */
public interface RangeReader extends Closeable {

    /** The largest window one call may ask for. */
    int MAX_WINDOW = Integer.MAX_VALUE;

    /**
     * Opens {@code location}: a local path or {@code file:} URI is mapped, any other URI is read
     * through the Flink file system of its scheme.
     */
    static RangeReader open(String location) throws IOException {
        return Locations.isLocal(location)
                ? new MappedRangeReader(Locations.localPath(location))
                : new StreamRangeReader(location);
    }

    /** The file's size in bytes, as it is now. */
    long size() throws IOException;

    /** When the file was last modified, in milliseconds since the epoch. */
    long lastModified() throws IOException;

    /** The file's identity (device and inode) where its file system has one, else "". */
    String fileKey() throws IOException;

    /** Reads up to {@code length} bytes at {@code position} into {@code into}; returns how many, or -1 at the end. */
    int read(long position, byte[] into, int offset, int length) throws IOException;

    /**
     * The bytes from {@code position} to {@code position + length}, read-only, valid until the next
     * window is asked for or {@link #releaseWindow()} is called: the one window open at a time
     * bounds what a reader holds of its file.
     */
    ByteBuffer window(long position, int length) throws IOException;

    /** Lets the current window go (a mapped one is unmapped at once). */
    void releaseWindow();

    /**
     * Says that the windows asked for next lie within {@code from} to {@code to}, in order, each
     * starting within or at the end of the one before (a split read chunk after chunk), and are of
     * about {@code window} bytes: a file read through a file system then reads the next bytes ahead,
     * by a thread of its own, from now on and while the caller works on a window. A mapped file has
     * nothing to wait for and ignores it.
     */
    default void readInOrder(long from, long to, int window) {}

    /**
     * Whether a read at a new position is a request that waits for an answer (a file system's,
     * such as an object store's GET) rather than a look into memory: then reads at many positions
     * are worth making at once, each by a reader of its own. False for a mapped file.
     */
    default boolean readsAreRequests() {
        return false;
    }

    /**
     * The file's bytes from its start, read in order through {@link #read}: for a file read as a
     * stream rather than in windows. Closing the stream does not close this reader.
     */
    default InputStream stream() {
        return new PositionedStream(this::read, 0, Long.MAX_VALUE, () -> {});
    }
}
