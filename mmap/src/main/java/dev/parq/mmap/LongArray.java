package dev.parq.mmap;

import java.util.Arrays;

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
        for (int index = 0; index < values.length; index++) {
            array.set(index, values[index]);
        }
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

    /** A copy of the elements in C order. */
    public long[] toArray() {
        long[] values = new long[checkedArrayLength()];
        for (int index = 0; index < values.length; index++) {
            values[index] = get(index);
        }
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
