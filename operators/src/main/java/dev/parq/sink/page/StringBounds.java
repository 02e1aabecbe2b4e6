package dev.parq.sink.page;

import org.apache.parquet.internal.column.columnindex.BinaryTruncator;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The minimum and maximum of a page's strings as its statistics take them. parquet-mr's
 * statistics copy each value they keep, once per page and again for the column chunk, so a page
 * whose minimum or maximum is a string of many megabytes would cost four copies of it, held until
 * the row group is written; and it writes no statistics at all where they exceed 4 KiB.
 *
 * <p>A value longer than {@link #MAX_EXACT} bytes is therefore replaced by a short bound, made
 * by parquet-mr's own truncator (valid UTF-8): a prefix for the minimum, a prefix incremented at
 * its last character for the maximum. The Parquet format allows min and max to be such bounds
 * ("may be ... values that do not exist on a page"), as parquet-mr's own statistics truncation
 * and its column indexes make them.
 */
public final class StringBounds {

    /** Strings up to this length are kept exactly: parquet-mr's limit for statistics it writes. */
    static final int MAX_EXACT = 4096;
    /** The length a longer string is cut to: parquet-mr's default for its column indexes. */
    static final int BOUND_LENGTH = 64;

    private final BinaryTruncator truncator;

    /** Bounds for the strings of a column of {@code type}; a column of other values has none to take. */
    public StringBounds(PrimitiveType type) {
        this.truncator = type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                ? BinaryTruncator.getTruncator(type) : null;
    }

    /** A value at most the string at {@code bytes[from, from + length)}, valid until the bytes change. */
    public Binary lower(byte[] bytes, int from, int length) {
        return length <= MAX_EXACT
                ? Binary.fromReusedByteArray(bytes, from, length)
                : truncator.truncateMin(prefix(bytes, from, length), BOUND_LENGTH);
    }

    /** A value at least the string at {@code bytes[from, from + length)}, valid until the bytes change. */
    public Binary upper(byte[] bytes, int from, int length) {
        return length <= MAX_EXACT
                ? Binary.fromReusedByteArray(bytes, from, length)
                : truncator.truncateMax(prefix(bytes, from, length), BOUND_LENGTH);
    }

    /**
     * The first bytes of a long string, a little more than {@link #BOUND_LENGTH} and ending before
     * a character: the truncator checks that the whole of what it is given is valid UTF-8, which
     * for a value of megabytes would cost more than writing it. A bound of the prefix that is
     * longer than the bound length is one of the whole value too: both start with the same
     * {@link #BOUND_LENGTH} bytes.
     */
    private static Binary prefix(byte[] bytes, int from, int length) {
        int end = from + Math.min(length, BOUND_LENGTH + 8);
        while (end > from + BOUND_LENGTH + 1 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return Binary.fromReusedByteArray(bytes, from, end - from);
    }
}
