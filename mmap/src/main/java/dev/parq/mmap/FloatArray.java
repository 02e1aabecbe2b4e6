package dev.parq.mmap;

import java.nio.ByteBuffer;

/** A view of {@code float32} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class FloatArray extends TypedView<FloatArray, float[]> {

    FloatArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static FloatArray of(float[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static FloatArray of(float[] values, long... shape) {
        return filled(DType.FLOAT32, values, shape);
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

    @Override
    float[] newValues(int length) {
        return new float[length];
    }

    @Override
    int lengthOf(float[] values) {
        return values.length;
    }

    @Override
    void readPiece(ByteBuffer piece, float[] target, int targetOffset, int count) {
        piece.asFloatBuffer().get(target, targetOffset, count);
    }

    @Override
    void writePiece(ByteBuffer piece, float[] source, int sourceOffset, int count) {
        piece.asFloatBuffer().put(source, sourceOffset, count);
    }

    @Override
    void readElement(long index, float[] target, int targetOffset) {
        target[targetOffset] = get(index);
    }

    @Override
    void writeElement(long index, float[] source, int sourceOffset) {
        set(index, source[sourceOffset]);
    }
}
