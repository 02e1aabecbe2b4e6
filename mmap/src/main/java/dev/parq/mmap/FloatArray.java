package dev.parq.mmap;

import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Objects;

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
        array.set(0, values, 0, values.length);
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

    /**
     * Reads {@code count} elements from flat index {@code index} into {@code target}. On a
     * contiguous view this is a bulk copy per chunk, much faster than {@link #get(long)} in a
     * loop; it allocates a small buffer view per chunk touched, so read blocks of thousands.
     */
    public void get(long index, float[] target, int targetOffset, int count) {
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
            FloatBuffer piece = storage.piece(
                    byteOffset + ((long) done << 2), (long) (count - done) << 2).asFloatBuffer();
            int pieceCount = piece.remaining();
            piece.get(target, targetOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /**
     * Writes {@code count} elements of {@code source} from flat index {@code index}; a bulk
     * copy on a contiguous view, like {@link #get(long, float[], int, int)}.
     */
    public void set(long index, float[] source, int sourceOffset, int count) {
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
            FloatBuffer piece = storage.piece(
                    byteOffset + ((long) done << 2), (long) (count - done) << 2).asFloatBuffer();
            int pieceCount = piece.remaining();
            piece.put(source, sourceOffset + done, pieceCount);
            done += pieceCount;
        }
    }

    /** A copy of the elements in C order. */
    public float[] toArray() {
        float[] values = new float[checkedArrayLength()];
        get(0, values, 0, values.length);
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
