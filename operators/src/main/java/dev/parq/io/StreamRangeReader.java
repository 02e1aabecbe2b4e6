package dev.parq.io;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * A file of a Flink file system other than the local one: windows are read into one direct buffer,
 * kept and reused while windows fit it, so that a reader holds one window's bytes at a time here too.
 */
final class StreamRangeReader implements RangeReader {

    private final Path path;
    private final FileSystem fileSystem;
    private final PositionedReads in;
    /** Asked for once: an object does not change under its key; a new version is another object. */
    private FileStatus status;
    private ByteBuffer buffer;
    private byte[] transfer;

    StreamRangeReader(String location) throws IOException {
        this(new Path(location), new Path(location).getFileSystem());
    }

    StreamRangeReader(Path path, FileSystem fileSystem) throws IOException {
        this.path = path;
        this.fileSystem = fileSystem;
        this.in = new PositionedReads(fileSystem, path);
    }

    private FileStatus status() throws IOException {
        if (status == null) {
            status = fileSystem.getFileStatus(path);
        }
        return status;
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
    public ByteBuffer window(long position, int length) throws IOException {
        if (buffer == null || buffer.capacity() < length) {
            buffer = ByteBuffer.allocateDirect(length);
        }
        if (transfer == null) {
            transfer = new byte[64 << 10];
        }
        buffer.clear().limit(length);
        long at = position;
        while (buffer.hasRemaining()) {
            int n = read(at, transfer, 0, Math.min(transfer.length, buffer.remaining()));
            if (n < 0) {
                throw new IOException(path + " ended at byte " + at + ", before the " + length
                        + " bytes asked for from byte " + position);
            }
            buffer.put(transfer, 0, n);
            at += n;
        }
        return buffer.flip().asReadOnlyBuffer();
    }

    @Override
    public void releaseWindow() {
        // The buffer is kept for the next window; a larger window replaces it.
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
