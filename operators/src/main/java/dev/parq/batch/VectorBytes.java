package dev.parq.batch;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * How many bytes a range of a batch's rows holds, as a writer measures what it is about to
 * buffer: fixed-width values at their width, strings at their length plus a 4-byte length (the
 * PLAIN encoding's), lists at their elements plus an offset each; validity bits are left out.
 *
 * <p>A range is measured through the offsets alone, without visiting its rows: a string column's
 * bytes for rows {@code [from, to)} are two offsets apart, a list's elements are the child's
 * range between two offsets. So it costs the same for one row as for a million.
 */
public final class VectorBytes {

    private static final int LENGTH_BYTES = Integer.BYTES;

    private VectorBytes() {}

    /** The bytes of the values at indexes {@code from} to {@code to} of {@code vector}. */
    public static long of(ValueVector vector, int from, int to) {
        if (to <= from) {
            return 0;
        }
        int count = to - from;
        if (vector instanceof BaseVariableWidthVector) {
            return (long) offset(vector, to) - offset(vector, from) + (long) count * LENGTH_BYTES;
        }
        if (vector instanceof BitVector) {
            return (count + 7) / 8;
        }
        if (vector instanceof BaseFixedWidthVector) {
            return (long) count * ((BaseFixedWidthVector) vector).getTypeWidth();
        }
        if (vector instanceof ListVector) {
            ListVector list = (ListVector) vector;
            return of(list.getDataVector(), offset(list, from), offset(list, to)) + (long) count * LENGTH_BYTES;
        }
        if (vector instanceof StructVector) {
            long bytes = 0;
            for (ValueVector child : ((StructVector) vector).getChildrenFromFields()) {
                bytes += of(child, from, to);
            }
            return bytes;
        }
        throw new IllegalArgumentException("no byte measure for " + vector.getClass().getSimpleName());
    }

    /** The bytes of rows {@code from} to {@code to} of every vector in {@code vectors}. */
    public static long ofRows(Iterable<? extends ValueVector> vectors, int from, int to) {
        long bytes = 0;
        for (ValueVector vector : vectors) {
            bytes += of(vector, from, to);
        }
        return bytes;
    }

    /** The bytes of a range of rows of something: a batch, a leaf column. */
    @FunctionalInterface
    public interface RangeBytes {
        long of(int from, int to);
    }

    /**
     * The end of the longest run of rows from {@code from}, at most {@code maxRows} of them and
     * none past {@code end}, whose {@code bytes} stay within {@code maxBytes}; at least one row,
     * however large, so that a caller always makes progress.
     */
    public static int endWithin(RangeBytes bytes, int from, int end, int maxRows, long maxBytes) {
        int high = (int) Math.min(end, (long) from + maxRows);
        if (high - from <= 1 || bytes.of(from, high) <= maxBytes) {
            return high;
        }
        int low = from + 1;
        // low is taken (one row at least), high is not: halve the gap.
        while (high - low > 1) {
            int middle = (low + high) >>> 1;
            if (bytes.of(from, middle) <= maxBytes) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private static int offset(ValueVector vector, int index) {
        return vector.getOffsetBuffer().getInt((long) index * BaseVariableWidthVector.OFFSET_WIDTH);
    }
}
