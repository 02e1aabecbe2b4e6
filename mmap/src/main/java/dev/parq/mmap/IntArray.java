package dev.parq.mmap;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Objects;

/** A view of {@code int32} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class IntArray extends NdArray {

    IntArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static IntArray of(int[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static IntArray of(int[] values, long... shape) {
        IntArray array = zeros(shape);
        if (array.length != values.length) {
            throw new IllegalArgumentException(
                    values.length + " values do not fill shape " + Arrays.toString(shape));
        }
        array.set(0, values, 0, values.length);
        return array;
    }

    public static IntArray zeros(long... shape) {
        return DType.INT32.zeros(shape);
    }

    @Override
    public DType<IntArray> dtype() {
        return DType.INT32;
    }

    /** The element at a flat C-order index of this view. */
    public int get(long index) {
        return storage.getInt(elementOffset(index) << 2);
    }

    public int get(long i, long j) {
        return storage.getInt(elementOffset(i, j) << 2);
    }

    public int get(long i, long j, long k) {
        return storage.getInt(elementOffset(i, j, k) << 2);
    }

    public int get(long i, long j, long k, long l) {
        return storage.getInt(elementOffset(i, j, k, l) << 2);
    }

    /** Sets the element at a flat C-order index of this view. */
    public void set(long index, int value) {
        checkWritable();
        storage.putInt(elementOffset(index) << 2, value);
    }

    public void set(long i, long j, int value) {
        checkWritable();
        storage.putInt(elementOffset(i, j) << 2, value);
    }

    public void set(long i, long j, long k, int value) {
        checkWritable();
        storage.putInt(elementOffset(i, j, k) << 2, value);
    }

    public void set(long i, long j, long k, long l, int value) {
        checkWritable();
        storage.putInt(elementOffset(i, j, k, l) << 2, value);
    }

    /**
     * Reads {@code count} elements from flat index {@code index} into {@code target}. On a
     * contiguous view this is a bulk copy per chunk, much faster than {@link #get(long)} in a
     * loop; it allocates a small buffer view per chunk touched, so read blocks of thousands.
     */
    public void get(long index, int[] target, int targetOffset, int count) {
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(targetOffset, count, target.length);
        if (!contiguous) {
            for (int k = 0; k < count; k++) {
                target[targetOffset + k] = get(index + k);
            }
            return;
        }
        long byteOffset = (offset + index) << 2;
        int done = 0;
        while (done < count) {
            IntBuffer piece = storage.piece(
                    byteOffset + ((long) done << 2), (long) (count - done) << 2).asIntBuffer();
            int pieceCount = piece.remaining();
            piece.get(target, targetOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /**
     * Writes {@code count} elements of {@code source} from flat index {@code index}; a bulk
     * copy on a contiguous view, like {@link #get(long, int[], int, int)}.
     */
    public void set(long index, int[] source, int sourceOffset, int count) {
        checkWritable();
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(sourceOffset, count, source.length);
        if (!contiguous) {
            for (int k = 0; k < count; k++) {
                set(index + k, source[sourceOffset + k]);
            }
            return;
        }
        long byteOffset = (offset + index) << 2;
        int done = 0;
        while (done < count) {
            IntBuffer piece = storage.piece(
                    byteOffset + ((long) done << 2), (long) (count - done) << 2).asIntBuffer();
            int pieceCount = piece.remaining();
            piece.put(source, sourceOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /** A copy of the elements in C order. */
    public int[] toArray() {
        int[] values = new int[checkedArrayLength()];
        get(0, values, 0, values.length);
        return values;
    }

    @Override
    public IntArray readOnly() {
        return (IntArray) super.readOnly();
    }

    @Override
    public IntArray slice(int axis, long start, long end) {
        return (IntArray) super.slice(axis, start, end);
    }

    @Override
    public IntArray transpose() {
        return (IntArray) super.transpose();
    }

    @Override
    public IntArray transpose(int... axes) {
        return (IntArray) super.transpose(axes);
    }

    @Override
    public IntArray copy() {
        return (IntArray) super.copy();
    }
}
