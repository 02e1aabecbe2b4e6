package dev.parq.sink.page;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The string bytes of a range of rows of a {@link VarCharVector}, copied out of Arrow memory in
 * one piece, so that each value is then read from a plain array instead of through bounds-checked
 * buffer calls. The array is reused from range to range.
 */
public final class StringSlice {

    private static final int INITIAL_BYTES = 64 * 1024;
    /**
     * The largest slice its writers take (pages are cut at their size in bytes, so a range is
     * rarely larger than a page); a larger range is copied value by value instead, and an array
     * grown past this for a single row's many values is let go at the next ordinary slice.
     */
    static final int RETAINED_BYTES = 2 << 20;

    private byte[] bytes = new byte[INITIAL_BYTES];
    private ArrowBuf offsets;
    private int base;

    /** Copies the bytes of rows {@code start} to {@code end} of {@code vector}; returns how many there are. */
    public int load(VarCharVector vector, int start, int end) {
        offsets = vector.getOffsetBuffer();
        base = offset(start);
        int length = offset(end) - base;
        if (length > bytes.length) {
            bytes = new byte[length > RETAINED_BYTES ? length : Math.min(RETAINED_BYTES, Math.max(length, bytes.length * 2))];
        } else if (bytes.length > RETAINED_BYTES && length <= RETAINED_BYTES) {
            bytes = new byte[Math.max(INITIAL_BYTES, length)];
        }
        vector.getDataBuffer().getBytes(base, bytes, 0, length);
        return length;
    }

    /** The bytes of rows {@code start} to {@code end} of {@code vector}, without copying them. */
    public static int span(VarCharVector vector, int start, int end) {
        ArrowBuf offsets = vector.getOffsetBuffer();
        return offsets.getInt((long) end * BaseVariableWidthVector.OFFSET_WIDTH)
                - offsets.getInt((long) start * BaseVariableWidthVector.OFFSET_WIDTH);
    }

    public byte[] bytes() {
        return bytes;
    }

    /** Where the value of {@code row}, one of the loaded rows, starts in {@link #bytes()}. */
    public int start(int row) {
        return offset(row) - base;
    }

    /** The length of the value of {@code row}, one of the loaded rows. */
    public int length(int row) {
        return offset(row + 1) - offset(row);
    }

    private int offset(int row) {
        return offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
    }
}
