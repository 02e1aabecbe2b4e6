package dev.parq.mmap;

import java.util.Arrays;

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
        for (int index = 0; index < values.length; index++) {
            array.set(index, values[index]);
        }
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

    /** A copy of the elements in C order. */
    public int[] toArray() {
        int[] values = new int[checkedArrayLength()];
        for (int index = 0; index < values.length; index++) {
            values[index] = get(index);
        }
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
