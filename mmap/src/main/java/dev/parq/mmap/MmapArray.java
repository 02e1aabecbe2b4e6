package dev.parq.mmap;

import static dev.parq.mmap.MmapArrayException.Kind.DTYPE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.IO;
import static dev.parq.mmap.MmapArrayException.Kind.NON_CONTIGUOUS;
import static dev.parq.mmap.MmapArrayException.Kind.READ_ONLY;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * An n-dimensional array stored in a file (format in {@link Header}: a 64-byte header, then the
 * elements in C order, little-endian) and mapped into memory, so that views read and write the
 * page cache without copying. numpy reads the same file with
 * {@code np.memmap(path, dtype='<f4', mode='r', offset=64, shape=shape)}.
 *
 * <p>The header is validated before anything is mapped, including that the file is exactly as
 * long as the header says: a truncated or corrupted file is a {@link MmapArrayException}, never
 * an access beyond the end of the file. (A file truncated by another process <em>while</em>
 * mapped is outside this guarantee; the JVM then reports an {@link InternalError} on access.)
 *
 * <p>Files larger than 2 GiB are mapped as chunks of {@link ChunkedMapping#DEFAULT_CHUNK_SIZE}.
 *
 * <p>Modes:
 * <ul>
 *   <li>{@link Mode#READ_ONLY}: {@link #viewMut()} is refused.
 *   <li>{@link Mode#READ_WRITE}: writes through {@link #viewMut()} go to the file's pages;
 *       {@link #flush()} forces them to disk.
 *   <li>{@link Mode#COPY_ON_WRITE}: writes stay private to this process and the file is never
 *       modified. When the file can be opened for writing, it is mapped
 *       {@link FileChannel.MapMode#PRIVATE}: reads share the page cache and the kernel copies
 *       only the pages that are written. When it cannot (no write permission, read-only file
 *       system), it is mapped read-only and the first {@link #viewMut()} copies all elements
 *       to the heap; views taken earlier then read that copy too. {@link #flush()} is a no-op.
 * </ul>
 *
 * <p>Closing unmaps the file; views of a closed array throw {@link IllegalStateException}
 * instead of touching unmapped memory. Open, close and {@code viewMut} are not thread-safe.
 *
 * @param <A> the typed view class, such as {@link FloatArray}
 */
public final class MmapArray<A extends NdArray> implements AutoCloseable {

    public enum Mode {
        READ_ONLY,
        READ_WRITE,
        COPY_ON_WRITE
    }

    private final Path path;
    private final Mode mode;
    private final Header header;
    private final DType<A> dtype;
    private final int chunkSize;
    private final ChunkedMapping mapping;
    private final ElementStorage storage;
    private final boolean copiesOnFirstWrite;
    private ElementStorage privateCopy;
    private boolean closed;

    private MmapArray(Path path, Mode mode, Header header, DType<A> dtype, int chunkSize,
            ChunkedMapping mapping, boolean copiesOnFirstWrite) {
        this.path = path;
        this.mode = mode;
        this.header = header;
        this.dtype = dtype;
        this.chunkSize = chunkSize;
        this.mapping = mapping;
        this.storage = ElementStorage.ofMapping(mapping);
        this.copiesOnFirstWrite = copiesOnFirstWrite;
    }

    /**
     * Writes {@code array} to {@code path} (replacing any file there) and opens it read-write.
     *
     * @throws MmapArrayException {@code NON_CONTIGUOUS} if the array is not C-contiguous (a
     *     transposed or sliced view: {@link NdArray#copy()} it first), {@code TOO_MANY_DIMENSIONS}
     *     beyond 6 dimensions, {@code IO} if the file cannot be written
     */
    public static <A extends NdArray> MmapArray<A> create(Path path, A array)
            throws MmapArrayException {
        return create(path, array, ChunkedMapping.DEFAULT_CHUNK_SIZE);
    }

    static <A extends NdArray> MmapArray<A> create(Path path, A array, int chunkSize)
            throws MmapArrayException {
        if (!array.isContiguous()) {
            throw new MmapArrayException(NON_CONTIGUOUS, path, "the array with shape "
                    + Arrays.toString(array.shape) + " and strides " + Arrays.toString(array.strides)
                    + " is not C-contiguous; write a copy() of it");
        }
        Header header = Header.forArray(path, array);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(header.encode(), 0);
            int byteShift = array.dtype().byteShift();
            array.storage.writeTo(channel, Header.SIZE, array.offset << byteShift,
                    array.length << byteShift);
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot write the array: " + e, e);
        }
        @SuppressWarnings("unchecked") // every NdArray subclass returns its own DType
        DType<A> dtype = (DType<A>) array.dtype();
        return open(path, dtype, Mode.READ_WRITE, chunkSize, true);
    }

    /** Opens any element type read-only; the views are of the type the header names. */
    public static MmapArray<?> openReadOnly(Path path) throws MmapArrayException {
        return open(path, null, Mode.READ_ONLY, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    /** Opens read-only, refusing with {@code DTYPE_MISMATCH} a file of another element type. */
    public static <A extends NdArray> MmapArray<A> openReadOnly(Path path, DType<A> expected)
            throws MmapArrayException {
        return open(path, expected, Mode.READ_ONLY, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    public static MmapArray<?> openReadWrite(Path path) throws MmapArrayException {
        return open(path, null, Mode.READ_WRITE, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    public static <A extends NdArray> MmapArray<A> openReadWrite(Path path, DType<A> expected)
            throws MmapArrayException {
        return open(path, expected, Mode.READ_WRITE, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    public static MmapArray<?> openCopyOnWrite(Path path) throws MmapArrayException {
        return open(path, null, Mode.COPY_ON_WRITE, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    public static <A extends NdArray> MmapArray<A> openCopyOnWrite(Path path, DType<A> expected)
            throws MmapArrayException {
        return open(path, expected, Mode.COPY_ON_WRITE, ChunkedMapping.DEFAULT_CHUNK_SIZE, true);
    }

    /**
     * The general open. {@code expected} may be {@code null} for any element type; a
     * {@code chunkSize} below 2 GiB lets tests exercise chunk boundaries on small files;
     * {@code privateMappingAllowed = false} forces the copy-on-write fallback.
     */
    @SuppressWarnings("unchecked") // expected == null: A is unknown to the caller, who gets MmapArray<?>
    static <A extends NdArray> MmapArray<A> open(Path path, DType<A> expected, Mode mode,
            int chunkSize, boolean privateMappingAllowed) throws MmapArrayException {
        boolean privateMapping = mode == Mode.COPY_ON_WRITE && privateMappingAllowed;
        FileChannel channel;
        try {
            channel = openChannel(path, mode == Mode.READ_WRITE || privateMapping);
        } catch (IOException e) {
            if (!privateMapping) {
                throw new MmapArrayException(IO, path, "cannot open: " + e, e);
            }
            privateMapping = false;
            try {
                channel = openChannel(path, false);
            } catch (IOException readFailure) {
                throw new MmapArrayException(IO, path, "cannot open: " + readFailure, readFailure);
            }
        }
        try (FileChannel opened = channel) {
            Header header = Header.read(opened, path);
            if (expected != null && header.dtype != expected) {
                throw new MmapArrayException(DTYPE_MISMATCH, path,
                        "expected " + expected + " elements, the file holds " + header.dtype);
            }
            FileChannel.MapMode mapMode = mode == Mode.READ_WRITE ? FileChannel.MapMode.READ_WRITE
                    : privateMapping ? FileChannel.MapMode.PRIVATE : FileChannel.MapMode.READ_ONLY;
            ChunkedMapping mapping = ChunkedMapping.map(
                    opened, mapMode, Header.SIZE, header.dataBytes(), chunkSize);
            boolean copiesOnFirstWrite = mode == Mode.COPY_ON_WRITE && !privateMapping;
            return new MmapArray<>(path, mode, header, (DType<A>) header.dtype, chunkSize, mapping,
                    copiesOnFirstWrite);
        } catch (IOException e) {
            throw new MmapArrayException(IO, path, "cannot map: " + e, e);
        }
    }

    private static FileChannel openChannel(Path path, boolean writable) throws IOException {
        return writable
                ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.READ);
    }

    /** A read-only, zero-copy view of all elements. */
    public A view() {
        checkOpen();
        return dtype.view(storage, header.shape.clone(), NdArray.contiguousStrides(header.shape), 0,
                false);
    }

    /**
     * A writable, zero-copy view of all elements. In copy-on-write mode without a private
     * mapping, the first call copies the elements to the heap.
     *
     * @throws MmapArrayException {@code READ_ONLY} if the array was opened read-only
     */
    public A viewMut() throws MmapArrayException {
        checkOpen();
        if (mode == Mode.READ_ONLY) {
            throw new MmapArrayException(READ_ONLY, path,
                    "opened read-only; open it read-write or copy-on-write to modify it");
        }
        if (copiesOnFirstWrite && privateCopy == null) {
            privateCopy = ElementStorage.allocateHeap(header.dataBytes(), chunkSize);
            view().copyElementsTo(privateCopy, 0);
            storage.adopt(privateCopy);
            mapping.close();
        }
        return dtype.view(storage, header.shape.clone(), NdArray.contiguousStrides(header.shape), 0,
                true);
    }

    /** Forces written elements to disk in read-write mode; nothing to do in the other modes. */
    public void flush() {
        checkOpen();
        if (mode == Mode.READ_WRITE) {
            mapping.force();
        }
    }

    public long[] shape() {
        checkOpen();
        return header.shape.clone();
    }

    /** C-order strides in elements. */
    public long[] strides() {
        checkOpen();
        return NdArray.contiguousStrides(header.shape);
    }

    public int ndim() {
        checkOpen();
        return header.shape.length;
    }

    /** The number of elements. */
    public long length() {
        checkOpen();
        return header.length;
    }

    public boolean isEmpty() {
        return length() == 0;
    }

    public Path filePath() {
        return path;
    }

    public Mode mode() {
        return mode;
    }

    public DType<A> dtype() {
        return dtype;
    }

    /** Bytes of element data, without the header. */
    public long dataBytes() {
        checkOpen();
        return header.dataBytes();
    }

    /** A writable heap copy of all elements, independent of the file. */
    @SuppressWarnings("unchecked") // copy() of an A is an A
    public A toOwnedArray() {
        return (A) view().copy();
    }

    /** Unmaps the file; idempotent. Any later use of this array or its views throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        storage.release();
        mapping.close();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    @Override
    public String toString() {
        return "MmapArray[path=" + path + ", mode=" + mode + ", dtype=" + dtype + ", shape="
                + Arrays.toString(header.shape) + (closed ? ", closed" : "") + "]";
    }
}
