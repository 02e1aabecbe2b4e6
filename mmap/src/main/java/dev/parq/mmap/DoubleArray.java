package dev.parq.mmap;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.Objects;

/** A view of {@code double64} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class DoubleArray extends NdArray {

    DoubleArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static DoubleArray of(double[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static DoubleArray of(double[] values, long... shape) {
        DoubleArray array = zeros(shape);
        if (array.length != values.length) {
            throw new IllegalArgumentException(
                    values.length + " values do not fill shape " + Arrays.toString(shape));
        }
        array.set(0, values, 0, values.length);
        return array;
    }

    public static DoubleArray zeros(long... shape) {
        return DType.FLOAT64.zeros(shape);
    }

    @Override
    public DType<DoubleArray> dtype() {
        return DType.FLOAT64;
    }

    /** The element at a flat C-order index of this view. */
    public double get(long index) {
        return storage.getDouble(elementOffset(index) << 3);
    }

    public double get(long i, long j) {
        return storage.getDouble(elementOffset(i, j) << 3);
    }

    public double get(long i, long j, long k) {
        return storage.getDouble(elementOffset(i, j, k) << 3);
    }

    public double get(long i, long j, long k, long l) {
        return storage.getDouble(elementOffset(i, j, k, l) << 3);
    }

    /** Sets the element at a flat C-order index of this view. */
    public void set(long index, double value) {
        checkWritable();
        storage.putDouble(elementOffset(index) << 3, value);
    }

    public void set(long i, long j, double value) {
        checkWritable();
        storage.putDouble(elementOffset(i, j) << 3, value);
    }

    public void set(long i, long j, long k, double value) {
        checkWritable();
        storage.putDouble(elementOffset(i, j, k) << 3, value);
    }

    public void set(long i, long j, long k, long l, double value) {
        checkWritable();
        storage.putDouble(elementOffset(i, j, k, l) << 3, value);
    }

    /**
     * Reads {@code count} elements from flat index {@code index} into {@code target}. On a
     * contiguous view this is a bulk copy per chunk, much faster than {@link #get(long)} in a
     * loop; it allocates a small buffer view per chunk touched, so read blocks of thousands.
     */
    public void get(long index, double[] target, int targetOffset, int count) {
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
            DoubleBuffer piece = storage.piece(
                    byteOffset + ((long) done << 3), (long) (count - done) << 3).asDoubleBuffer();
            int pieceCount = piece.remaining();
            piece.get(target, targetOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /**
     * Writes {@code count} elements of {@code source} from flat index {@code index}; a bulk
     * copy on a contiguous view, like {@link #get(long, double[], int, int)}.
     */
    public void set(long index, double[] source, int sourceOffset, int count) {
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
            DoubleBuffer piece = storage.piece(
                    byteOffset + ((long) done << 3), (long) (count - done) << 3).asDoubleBuffer();
            int pieceCount = piece.remaining();
            piece.put(source, sourceOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /** A copy of the elements in C order. */
    public double[] toArray() {
        double[] values = new double[checkedArrayLength()];
        get(0, values, 0, values.length);
        return values;
    }

    @Override
    public DoubleArray readOnly() {
        return (DoubleArray) super.readOnly();
    }

    @Override
    public DoubleArray slice(int axis, long start, long end) {
        return (DoubleArray) super.slice(axis, start, end);
    }

    @Override
    public DoubleArray transpose() {
        return (DoubleArray) super.transpose();
    }

    @Override
    public DoubleArray transpose(int... axes) {
        return (DoubleArray) super.transpose(axes);
    }

    @Override
    public DoubleArray copy() {
        return (DoubleArray) super.copy();
    }
}
