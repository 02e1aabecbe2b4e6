package dev.parq.mmap;

import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Objects;

/** A view of {@code int64} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class LongArray extends NdArray {

    LongArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static LongArray of(long[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static LongArray of(long[] values, long... shape) {
        LongArray array = zeros(shape);
        if (array.length != values.length) {
            throw new IllegalArgumentException(
                    values.length + " values do not fill shape " + Arrays.toString(shape));
        }
        array.set(0, values, 0, values.length);
        return array;
    }

    public static LongArray zeros(long... shape) {
        return DType.INT64.zeros(shape);
    }

    @Override
    public DType<LongArray> dtype() {
        return DType.INT64;
    }

    /** The element at a flat C-order index of this view. */
    public long get(long index) {
        return storage.getLong(elementOffset(index) << 3);
    }

    public long get(long i, long j) {
        return storage.getLong(elementOffset(i, j) << 3);
    }

    public long get(long i, long j, long k) {
        return storage.getLong(elementOffset(i, j, k) << 3);
    }

    public long get(long i, long j, long k, long l) {
        return storage.getLong(elementOffset(i, j, k, l) << 3);
    }

    /** Sets the element at a flat C-order index of this view. */
    public void set(long index, long value) {
        checkWritable();
        storage.putLong(elementOffset(index) << 3, value);
    }

    public void set(long i, long j, long value) {
        checkWritable();
        storage.putLong(elementOffset(i, j) << 3, value);
    }

    public void set(long i, long j, long k, long value) {
        checkWritable();
        storage.putLong(elementOffset(i, j, k) << 3, value);
    }

    public void set(long i, long j, long k, long l, long value) {
        checkWritable();
        storage.putLong(elementOffset(i, j, k, l) << 3, value);
    }

    /**
     * Reads {@code count} elements from flat index {@code index} into {@code target}. On a
     * contiguous view this is a bulk copy per chunk, much faster than {@link #get(long)} in a
     * loop; it allocates a small buffer view per chunk touched, so read blocks of thousands.
     */
    public void get(long index, long[] target, int targetOffset, int count) {
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(targetOffset, count, target.length);
        if (!contiguous) {
            for (int k = 0; k < count; k++) {
                target[targetOffset + k] = get(index + k);
            }
            return;
        }
        long byteOffset = (offset + index) << 3;
        int done = 0;
        while (done < count) {
            LongBuffer piece = storage.piece(
                    byteOffset + ((long) done << 3), (long) (count - done) << 3).asLongBuffer();
            int pieceCount = piece.remaining();
            piece.get(target, targetOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /**
     * Writes {@code count} elements of {@code source} from flat index {@code index}; a bulk
     * copy on a contiguous view, like {@link #get(long, long[], int, int)}.
     */
    public void set(long index, long[] source, int sourceOffset, int count) {
        checkWritable();
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(sourceOffset, count, source.length);
        if (!contiguous) {
            for (int k = 0; k < count; k++) {
                set(index + k, source[sourceOffset + k]);
            }
            return;
        }
        long byteOffset = (offset + index) << 3;
        int done = 0;
        while (done < count) {
            LongBuffer piece = storage.piece(
                    byteOffset + ((long) done << 3), (long) (count - done) << 3).asLongBuffer();
            int pieceCount = piece.remaining();
            piece.put(source, sourceOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /** A copy of the elements in C order. */
    public long[] toArray() {
        long[] values = new long[checkedArrayLength()];
        get(0, values, 0, values.length);
        return values;
    }

    @Override
    public LongArray readOnly() {
        return (LongArray) super.readOnly();
    }

    @Override
    public LongArray slice(int axis, long start, long end) {
        return (LongArray) super.slice(axis, start, end);
    }

    @Override
    public LongArray transpose() {
        return (LongArray) super.transpose();
    }

    @Override
    public LongArray transpose(int... axes) {
        return (LongArray) super.transpose(axes);
    }

    @Override
    public LongArray copy() {
        return (LongArray) super.copy();
    }
}
