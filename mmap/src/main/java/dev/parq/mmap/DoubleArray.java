package dev.parq.mmap;

import java.util.Arrays;

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
        for (int index = 0; index < values.length; index++) {
            array.set(index, values[index]);
        }
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

    /** A copy of the elements in C order. */
    public double[] toArray() {
        double[] values = new double[checkedArrayLength()];
        for (int index = 0; index < values.length; index++) {
            values[index] = get(index);
        }
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
