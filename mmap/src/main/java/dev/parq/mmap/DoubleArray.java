package dev.parq.mmap;

import java.nio.ByteBuffer;

/** A view of {@code float64} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class DoubleArray extends TypedView<DoubleArray, double[]> {

    DoubleArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static DoubleArray of(double[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static DoubleArray of(double[] values, long... shape) {
        return filled(DType.FLOAT64, values, shape);
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

    @Override
    double[] newValues(int length) {
        return new double[length];
    }

    @Override
    int lengthOf(double[] values) {
        return values.length;
    }

    @Override
    void readPiece(ByteBuffer piece, double[] target, int targetOffset, int count) {
        piece.asDoubleBuffer().get(target, targetOffset, count);
    }

    @Override
    void writePiece(ByteBuffer piece, double[] source, int sourceOffset, int count) {
        piece.asDoubleBuffer().put(source, sourceOffset, count);
    }

    @Override
    void readElement(long index, double[] target, int targetOffset) {
        target[targetOffset] = get(index);
    }

    @Override
    void writeElement(long index, double[] source, int sourceOffset) {
        set(index, source[sourceOffset]);
    }
}
