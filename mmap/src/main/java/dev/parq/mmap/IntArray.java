package dev.parq.mmap;

import java.nio.ByteBuffer;

/** A view of {@code int32} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class IntArray extends TypedView<IntArray, int[]> {

    IntArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static IntArray of(int[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static IntArray of(int[] values, long... shape) {
        return filled(DType.INT32, values, shape);
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

    @Override
    int[] newValues(int length) {
        return new int[length];
    }

    @Override
    int lengthOf(int[] values) {
        return values.length;
    }

    @Override
    void readPiece(ByteBuffer piece, int[] target, int targetOffset, int count) {
        piece.asIntBuffer().get(target, targetOffset, count);
    }

    @Override
    void writePiece(ByteBuffer piece, int[] source, int sourceOffset, int count) {
        piece.asIntBuffer().put(source, sourceOffset, count);
    }

    @Override
    void readElement(long index, int[] target, int targetOffset) {
        target[targetOffset] = get(index);
    }

    @Override
    void writeElement(long index, int[] source, int sourceOffset) {
        set(index, source[sourceOffset]);
    }
}
