package dev.parq.mmap;

import java.util.Arrays;
import java.util.Objects;

/**
 * A typed n-dimensional view: a shape, strides in elements, and an offset into little-endian
 * storage that is either on the heap or mapped from a file. Views over heap and mapped memory are
 * the same classes ({@link FloatArray}, {@link DoubleArray}, {@link IntArray}, {@link LongArray}),
 * so code that reads arrays does not care where the bytes live.
 *
 * <p>{@link #slice} and {@link #transpose} return views sharing the same storage; {@link #copy}
 * returns an owned, C-contiguous heap array. A flat index always counts elements in C order of
 * this view's shape, whatever its strides.
 */
public abstract class NdArray {

    final ElementStorage storage;
    final long[] shape;
    final long[] strides;
    final long offset;
    final boolean writable;
    final long length;
    final boolean contiguous;

    NdArray(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        this.storage = storage;
        this.shape = shape;
        this.strides = strides;
        this.offset = offset;
        this.writable = writable;
        this.length = checkedLength(shape);
        this.contiguous = isContiguous(shape, strides, length);
    }

    public abstract DType<? extends NdArray> dtype();

    public final int ndim() {
        return shape.length;
    }

    public final long[] shape() {
        return shape.clone();
    }

    public final long shape(int axis) {
        return shape[axis];
    }

    /** Steps between neighbours along each axis, in elements (not bytes). */
    public final long[] strides() {
        return strides.clone();
    }

    /** The number of elements: the product of the shape, 1 for a 0-d array. */
    public final long length() {
        return length;
    }

    /** Count, sum, minimum, maximum and mean of the elements, NaN skipped; see {@link Stats}. */
    public final Stats stats() {
        return Stats.of(this);
    }

    public final boolean isEmpty() {
        return length == 0;
    }

    /** Whether {@code set} is allowed; views from {@code MmapArray.view()} are not writable. */
    public final boolean isWritable() {
        return writable;
    }

    /** Whether the elements lie in C order without gaps, so the view can be copied as bytes. */
    public final boolean isContiguous() {
        return contiguous;
    }

    /** The same elements, not writable through the returned view. */
    public abstract NdArray readOnly();

    /** The elements {@code [start, end)} along {@code axis}, sharing storage. */
    public abstract NdArray slice(int axis, long start, long end);

    /** The axes in reverse order (the matrix transpose for 2-d), sharing storage. */
    public abstract NdArray transpose();

    /** The axes permuted: axis {@code k} of the result is axis {@code axes[k]} of this view. */
    public abstract NdArray transpose(int... axes);

    /** An owned, writable, C-contiguous copy on the heap. */
    public abstract NdArray copy();

    /** Writes this view's elements in C order, contiguously, into {@code target} from a byte offset. */
    final void copyElementsTo(ElementStorage target, long targetByteOffset) {
        int byteSize = dtype().byteSize();
        int byteShift = dtype().byteShift();
        if (contiguous) {
            storage.copyBytes(offset << byteShift, target, targetByteOffset, length << byteShift);
            return;
        }
        for (long index = 0; index < length; index++) {
            long from = elementOffset(index) << byteShift;
            long to = targetByteOffset + (index << byteShift);
            if (byteSize == Long.BYTES) {
                target.putLong(to, storage.getLong(from));
            } else {
                target.putInt(to, storage.getInt(from));
            }
        }
    }

    /** The storage element of a flat C-order index of this view. */
    final long elementOffset(long index) {
        Objects.checkIndex(index, length);
        if (contiguous) {
            return offset + index;
        }
        long element = offset;
        long remaining = index;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            long extent = shape[axis];
            element += (remaining % extent) * strides[axis];
            remaining /= extent;
        }
        return element;
    }

    final long elementOffset(long i, long j) {
        checkDimensions(2);
        return offset
                + Objects.checkIndex(i, shape[0]) * strides[0]
                + Objects.checkIndex(j, shape[1]) * strides[1];
    }

    final long elementOffset(long i, long j, long k) {
        checkDimensions(3);
        return offset
                + Objects.checkIndex(i, shape[0]) * strides[0]
                + Objects.checkIndex(j, shape[1]) * strides[1]
                + Objects.checkIndex(k, shape[2]) * strides[2];
    }

    final long elementOffset(long i, long j, long k, long l) {
        checkDimensions(4);
        return offset
                + Objects.checkIndex(i, shape[0]) * strides[0]
                + Objects.checkIndex(j, shape[1]) * strides[1]
                + Objects.checkIndex(k, shape[2]) * strides[2]
                + Objects.checkIndex(l, shape[3]) * strides[3];
    }

    private void checkDimensions(int indexCount) {
        if (shape.length != indexCount) {
            throw new IllegalArgumentException(
                    indexCount + " indices given for a " + shape.length + "-d array");
        }
    }

    final void checkWritable() {
        if (!writable) {
            throw new UnsupportedOperationException(
                    "this view is read-only; take a writable one with MmapArray.viewMut()");
        }
    }

    /** The product of the shape, refusing negative extents and overflow. */
    static long checkedLength(long[] shape) {
        long product = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("negative extent in shape " + Arrays.toString(shape));
            }
            product = Math.multiplyExact(product, extent);
        }
        return product;
    }

    /** C-order strides, in elements, of a contiguous array of {@code shape}. */
    static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long step = 1;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            strides[axis] = step;
            step *= Math.max(shape[axis], 1);
        }
        return strides;
    }

    private static boolean isContiguous(long[] shape, long[] strides, long length) {
        if (length == 0) {
            return true;
        }
        long expected = 1;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            if (shape[axis] != 1 && strides[axis] != expected) {
                return false;
            }
            expected *= shape[axis];
        }
        return true;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(dtype=" + dtype() + ", shape=" + Arrays.toString(shape)
                + ", strides=" + Arrays.toString(strides) + (writable ? "" : ", read-only") + ")";
    }
}
