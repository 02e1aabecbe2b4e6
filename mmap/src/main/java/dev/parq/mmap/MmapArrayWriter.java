package dev.parq.mmap;

import static dev.parq.mmap.MmapArrayException.Kind.IO;
import static dev.parq.mmap.MmapArrayException.Kind.SIZE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.TOO_MANY_DIMENSIONS;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Writes an mmap array file of shape {@code [rows, rowShape...]} row by row, when the number of
 * rows is not known up front. Rows are appended after a placeholder header as little-endian
 * elements in C order; {@link #close()} writes the real header with the final row count, so the
 * file is a valid array only once the writer is closed.
 *
 * <pre>{@code
 * try (MmapArrayWriter writer = MmapArrayWriter.create(path, DType.FLOAT64, 3)) {
 *     writer.appendFile(segment);       // whole rows of raw elements, by transferTo
 *     writer.append(rowsBuffer);        // or from memory
 * }
 * }</pre>
 */
public final class MmapArrayWriter implements AutoCloseable {

    private final Path path;
    private final DType<?> dtype;
    private final long[] rowShape;
    private final long rowBytes;
    private final FileChannel channel;
    private long dataBytes;
    private boolean closed;

    private MmapArrayWriter(Path path, DType<?> dtype, long[] rowShape, long rowBytes, FileChannel channel) {
        this.path = path;
        this.dtype = dtype;
        this.rowShape = rowShape;
        this.rowBytes = rowBytes;
        this.channel = channel;
    }

    /**
     * Creates (or truncates) {@code path} for an array of {@code rowShape}-shaped rows; with no
     * {@code rowShape} the array is 1-d.
     */
    public static MmapArrayWriter create(Path path, DType<?> dtype, long... rowShape) throws MmapArrayException {
        if (rowShape.length + 1 > Header.MAX_DIMENSIONS) {
            throw new MmapArrayException(TOO_MANY_DIMENSIONS, path, "rows of " + rowShape.length
                    + " dimensions make " + (rowShape.length + 1) + ", the format holds at most "
                    + Header.MAX_DIMENSIONS);
        }
        long[] shape = rowShape.clone();
        long rowBytes = Math.multiplyExact(NdArray.checkedLength(shape), (long) dtype.byteSize());
        if (rowBytes == 0) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "rows of shape " + Arrays.toString(shape)
                    + " hold no elements, so the row count could not be told from the data");
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            writeFully(channel, ByteBuffer.allocate(Header.SIZE), 0);
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot create the array file: " + e.getMessage(), e);
        }
        return new MmapArrayWriter(path, dtype, shape, rowBytes, channel);
    }

    /** Appends the bytes from {@code elements}' position to its limit, which must be whole rows. */
    public void append(ByteBuffer elements) throws MmapArrayException {
        checkOpen();
        checkWholeRows(elements.remaining(), "a buffer");
        try {
            long written = elements.remaining();
            writeFully(channel, elements, Header.SIZE + dataBytes);
            dataBytes += written;
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot append rows: " + e.getMessage(), e);
        }
    }

    /**
     * Appends the whole content of {@code file}, raw little-endian elements that must be whole
     * rows, copied by the kernel ({@link FileChannel#transferTo}).
     */
    public void appendFile(Path file) throws MmapArrayException {
        checkOpen();
        try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = source.size();
            checkWholeRows(size, file.toString());
            long done = 0;
            while (done < size) {
                long moved = source.transferTo(done, size - done, channel.position(Header.SIZE + dataBytes + done));
                if (moved <= 0) {
                    throw new IOException("transferTo stopped at byte " + done + " of " + size);
                }
                done += moved;
            }
            dataBytes += size;
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot append " + file + ": " + e.getMessage(), e);
        }
    }

    /** Rows appended so far. */
    public long rows() {
        return dataBytes / rowBytes;
    }

    public DType<?> dtype() {
        return dtype;
    }

    /** The array's shape if it were closed now: {@code [rows(), rowShape...]}. */
    public long[] shape() {
        long[] shape = new long[rowShape.length + 1];
        shape[0] = rows();
        System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
        return shape;
    }

    /** Writes the header with the final row count, forces the file to disk and closes it. Idempotent. */
    @Override
    public void close() throws MmapArrayException {
        if (closed) {
            return;
        }
        closed = true;
        try (FileChannel toClose = channel) {
            writeFully(toClose, new Header(dtype, shape()).encode(), 0);
            toClose.force(true);
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot finish the array file: " + e.getMessage(), e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the writer of " + path + " is closed");
        }
    }

    private void checkWholeRows(long bytes, String what) throws MmapArrayException {
        if (bytes % rowBytes != 0) {
            throw new MmapArrayException(SIZE_MISMATCH, path, what + " holds " + bytes
                    + " bytes, not a whole number of " + rowBytes + "-byte rows of " + dtype);
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += channel.write(bytes, at);
        }
    }
}
