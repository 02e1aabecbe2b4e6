package dev.parq.mmap;

import java.util.Arrays;

/** A view of {@code float32} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class FloatArray extends NdArray {

    FloatArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static FloatArray of(float[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static FloatArray of(float[] values, long... shape) {
        FloatArray array = zeros(shape);
        if (array.length != values.length) {
            throw new IllegalArgumentException(
                    values.length + " values do not fill shape " + Arrays.toString(shape));
        }
        for (int index = 0; index < values.length; index++) {
            array.set(index, values[index]);
        }
        return array;
    }

    public static FloatArray zeros(long... shape) {
        return DType.FLOAT32.zeros(shape);
    }

    @Override
    public DType<FloatArray> dtype() {
        return DType.FLOAT32;
    }

    /** The element at a flat C-order index of this view. */
    public float get(long index) {
        return storage.getFloat(elementOffset(index) << 2);
    }

    public float get(long i, long j) {
        return storage.getFloat(elementOffset(i, j) << 2);
    }

    public float get(long i, long j, long k) {
        return storage.getFloat(elementOffset(i, j, k) << 2);
    }

    public float get(long i, long j, long k, long l) {
        return storage.getFloat(elementOffset(i, j, k, l) << 2);
    }

    /** Sets the element at a flat C-order index of this view. */
    public void set(long index, float value) {
        checkWritable();
        storage.putFloat(elementOffset(index) << 2, value);
    }

    public void set(long i, long j, float value) {
        checkWritable();
        storage.putFloat(elementOffset(i, j) << 2, value);
    }

    public void set(long i, long j, long k, float value) {
        checkWritable();
        storage.putFloat(elementOffset(i, j, k) << 2, value);
    }

    public void set(long i, long j, long k, long l, float value) {
        checkWritable();
        storage.putFloat(elementOffset(i, j, k, l) << 2, value);
    }

    /** A copy of the elements in C order. */
    public float[] toArray() {
        float[] values = new float[checkedArrayLength()];
        for (int index = 0; index < values.length; index++) {
            values[index] = get(index);
        }
        return values;
    }

    @Override
    public FloatArray readOnly() {
        return (FloatArray) super.readOnly();
    }

    @Override
    public FloatArray slice(int axis, long start, long end) {
        return (FloatArray) super.slice(axis, start, end);
    }

    @Override
    public FloatArray transpose() {
        return (FloatArray) super.transpose();
    }

    @Override
    public FloatArray transpose(int... axes) {
        return (FloatArray) super.transpose(axes);
    }

    @Override
    public FloatArray copy() {
        return (FloatArray) super.copy();
    }
}
