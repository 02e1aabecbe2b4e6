package dev.parq.mmap;

import java.util.List;

/**
 * An element type of the mmap format, tied to the view class that reads it, so that
 * {@code MmapArray.openReadOnly(path, DType.FLOAT32).view()} is a {@link FloatArray} without casts.
 *
 * @param <A> the typed view of this element type
 */
public final class DType<A extends NdArray> {

    public static final DType<FloatArray> FLOAT32 =
            new DType<>(1, "float32", 4, "<f4", FloatArray::new);
    public static final DType<DoubleArray> FLOAT64 =
            new DType<>(2, "float64", 8, "<f8", DoubleArray::new);
    public static final DType<IntArray> INT32 = new DType<>(3, "int32", 4, "<i4", IntArray::new);
    public static final DType<LongArray> INT64 = new DType<>(4, "int64", 8, "<i8", LongArray::new);

    private static final List<DType<?>> ALL = List.of(FLOAT32, FLOAT64, INT32, INT64);

    /** Builds a typed view over storage; one per element type. */
    interface ViewFactory<A> {
        A create(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable);
    }

    private final int id;
    private final String name;
    private final int byteSize;
    private final String npyDescr;
    private final ViewFactory<A> viewFactory;

    private DType(int id, String name, int byteSize, String npyDescr, ViewFactory<A> viewFactory) {
        this.id = id;
        this.name = name;
        this.byteSize = byteSize;
        this.npyDescr = npyDescr;
        this.viewFactory = viewFactory;
    }

    public static List<DType<?>> values() {
        return ALL;
    }

    /** The type with this header id, or {@code null} if the id is not one of the format's. */
    public static DType<?> fromId(int id) {
        for (DType<?> type : ALL) {
            if (type.id == id) {
                return type;
            }
        }
        return null;
    }

    /** The type with this numpy descr (such as {@code <f4}), or {@code null} if unsupported. */
    public static DType<?> fromNpyDescr(String descr) {
        for (DType<?> type : ALL) {
            if (type.npyDescr.equals(descr)) {
                return type;
            }
        }
        return null;
    }

    /** The id stored at byte 5 of the header. */
    public int id() {
        return id;
    }

    /** The numpy name, such as {@code float32}. */
    public String name() {
        return name;
    }

    public int byteSize() {
        return byteSize;
    }

    /** log2 of {@link #byteSize()}: element offsets become byte offsets by a shift. */
    int byteShift() {
        return Integer.numberOfTrailingZeros(byteSize);
    }

    /** The little-endian numpy descr, such as {@code <f4}. */
    public String npyDescr() {
        return npyDescr;
    }

    A view(ElementStorage storage, long[] shape, long[] strides, long offset, boolean writable) {
        return viewFactory.create(storage, shape, strides, offset, writable);
    }

    /** A zero-filled, writable, C-contiguous array on the Java heap. */
    public A zeros(long... shape) {
        long[] ownShape = shape.clone();
        long length = NdArray.checkedLength(ownShape);
        ElementStorage storage =
                ElementStorage.allocateHeap(Math.multiplyExact(length, (long) byteSize));
        return view(storage, ownShape, NdArray.contiguousStrides(ownShape), 0, true);
    }

    @Override
    public String toString() {
        return name;
    }
}
