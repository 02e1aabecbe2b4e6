package dev.parq.mmap;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The one implementation behind {@link FloatArray}, {@link DoubleArray}, {@link IntArray} and
 * {@link LongArray}: views derived from a view (slices, transposes, copies) are of its own class,
 * and elements move in bulk between the storage and a Java array of the element type. A subclass
 * adds only what has to name its primitive type: element {@code get} and {@code set}, and the
 * hooks below that move elements between a Java array and a piece of storage or one element.
 * The four subclasses are written by the build from one template,
 * {@code src/main/templates/TypedArray.java.template}, so that each is a final class whose
 * element accessors the JIT inlines, with no interface between a loop and the buffer.
 *
 * <p>The public methods are not {@code final} because javac bridges only overridable methods into
 * the public subclasses, and without the bridges reflection from outside this package cannot
 * call a method declared in this package-private class.
 *
 * @param <V> the view class itself, which derived views are
 * @param <P> the Java array type of its elements, such as {@code float[]}
 */
abstract class TypedView<V extends TypedView<V, P>, P> extends NdArray {

    TypedView(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        super(storage, shape, strides, offset, writable);
    }

    /** A writable heap array of {@code shape} holding a copy of {@code values} in C order. */
    static <V extends TypedView<V, P>, P> V filled(DType<V> type, P values, long[] shape) {
        V array = type.zeros(shape);
        int count = array.lengthOf(values);
        if (array.length != count) {
            throw new IllegalArgumentException(
                    count + " values do not fill shape " + Arrays.toString(shape));
        }
        array.set(0, values, 0, count);
        return array;
    }

    @Override
    public abstract DType<V> dtype();

    abstract P newValues(int length);

    abstract int lengthOf(P values);

    /** Copies the first {@code count} elements of a piece of storage into {@code target}. */
    abstract void readPiece(ByteBuffer piece, P target, int targetOffset, int count);

    /** Copies {@code count} elements of {@code source} to the start of a piece of storage. */
    abstract void writePiece(ByteBuffer piece, P source, int sourceOffset, int count);

    /** Copies the element at a flat index into {@code target}, for views that are not contiguous. */
    abstract void readElement(long index, P target, int targetOffset);

    /** Sets the element at a flat index from {@code source}, for views that are not contiguous. */
    abstract void writeElement(long index, P source, int sourceOffset);

    /**
     * Reads {@code count} elements from flat index {@code index} into {@code target}. On a
     * contiguous view this is a bulk copy per chunk, much faster than {@code get(long)} in a
     * loop; it allocates a small buffer view per chunk touched, so read blocks of thousands.
     */
    public void get(long index, P target, int targetOffset, int count) {
        transfer(index, target, targetOffset, count, false);
    }

    /**
     * Writes {@code count} elements of {@code source} from flat index {@code index}; a bulk
     * copy on a contiguous view, like the bulk {@code get}.
     */
    public void set(long index, P source, int sourceOffset, int count) {
        checkWritable();
        transfer(index, source, sourceOffset, count, true);
    }

    private void transfer(long index, P values, int valuesOffset, int count, boolean toStorage) {
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(valuesOffset, count, lengthOf(values));
        if (!contiguous) {
            for (int k = 0; k < count; k++) {
                if (toStorage) {
                    writeElement(index + k, values, valuesOffset + k);
                } else {
                    readElement(index + k, values, valuesOffset + k);
                }
            }
            return;
        }
        int byteShift = dtype().byteShift();
        long byteOffset = (offset + index) << byteShift;
        int done = 0;
        while (done < count) {
            ByteBuffer piece = storage.piece(
                    byteOffset + ((long) done << byteShift), (long) (count - done) << byteShift);
            int pieceCount = piece.remaining() >>> byteShift;
            if (toStorage) {
                writePiece(piece, values, valuesOffset + done, pieceCount);
            } else {
                readPiece(piece, values, valuesOffset + done, pieceCount);
            }
            done += pieceCount;
        }
    }

    /** A copy of the elements in C order. */
    public P toArray() {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(
                    length + " elements do not fit in one Java array; read them through the view");
        }
        P values = newValues((int) length);
        get(0, values, 0, (int) length);
        return values;
    }

    @Override
    public V readOnly() {
        return dtype().view(storage, shape, strides, offset, false);
    }

    @Override
    public V slice(int axis, long start, long end) {
        Objects.checkIndex(axis, shape.length);
        Objects.checkFromToIndex(start, end, shape[axis]);
        long[] newShape = shape.clone();
        newShape[axis] = end - start;
        long newOffset = end > start ? offset + start * strides[axis] : offset;
        return dtype().view(storage, newShape, strides, newOffset, writable);
    }

    @Override
    public V transpose() {
        int[] reversed = new int[shape.length];
        for (int axis = 0; axis < reversed.length; axis++) {
            reversed[axis] = reversed.length - 1 - axis;
        }
        return transpose(reversed);
    }

    @Override
    public V transpose(int... axes) {
        if (axes.length != shape.length) {
            throw new IllegalArgumentException(
                    "transpose needs " + shape.length + " axes, got " + Arrays.toString(axes));
        }
        boolean[] seen = new boolean[axes.length];
        long[] newShape = new long[axes.length];
        long[] newStrides = new long[axes.length];
        for (int k = 0; k < axes.length; k++) {
            int axis = Objects.checkIndex(axes[k], axes.length);
            if (seen[axis]) {
                throw new IllegalArgumentException(
                        "axes are not a permutation: " + Arrays.toString(axes));
            }
            seen[axis] = true;
            newShape[k] = shape[axis];
            newStrides[k] = strides[axis];
        }
        return dtype().view(storage, newShape, newStrides, offset, writable);
    }

    @Override
    public V copy() {
        V target = dtype().zeros(shape);
        copyElementsTo(target.storage, 0);
        return target;
    }
}
