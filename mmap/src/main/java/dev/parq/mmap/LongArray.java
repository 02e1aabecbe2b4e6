package dev.parq.mmap;

import java.nio.ByteBuffer;

/** A view of {@code int64} elements; see {@link NdArray} for shape, strides and flat indices. */
public final class LongArray extends TypedView<LongArray, long[]> {

    LongArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable 1-d heap array holding a copy of {@code values}. */
    public static LongArray of(long[] values) {
        return of(values, values.length);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    public static LongArray of(long[] values, long... shape) {
        return filled(DType.INT64, values, shape);
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

    @Override
    long[] newValues(int length) {
        return new long[length];
    }

    @Override
    int lengthOf(long[] values) {
        return values.length;
    }

    @Override
    void readPiece(ByteBuffer piece, long[] target, int targetOffset, int count) {
        piece.asLongBuffer().get(target, targetOffset, count);
    }

    @Override
    void writePiece(ByteBuffer piece, long[] source, int sourceOffset, int count) {
        piece.asLongBuffer().put(source, sourceOffset, count);
    }

    @Override
    void readElement(long index, long[] target, int targetOffset) {
        target[targetOffset] = get(index);
    }

    @Override
    void writeElement(long index, long[] source, int sourceOffset) {
        set(index, source[sourceOffset]);
    }
}
