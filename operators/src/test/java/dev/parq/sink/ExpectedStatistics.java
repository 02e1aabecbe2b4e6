package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The statistics a page or column chunk should have, gathered from the values (String, Integer,
 * Long, Double or Boolean) and nulls it holds: the null count, and the minimum and maximum in the
 * column's order as the column index stores them, PLAIN without a string's length.
 */
final class ExpectedStatistics {

    private static final Comparator<ByteBuffer> UNSIGNED_BYTES = (a, b) -> Arrays.compareUnsigned(a.array(), b.array());

    private long nulls;
    private Object minValue;
    private Object maxValue;
    private ByteBuffer min;
    private ByteBuffer max;
    private Comparator<ByteBuffer> order;

    /** Adds a value, or a null for null. */
    void add(Object value) {
        if (value == null) {
            nulls++;
            return;
        }
        ByteBuffer bytes = plain(value);
        if (min == null) {
            order = orderOf(value);
            minValue = value;
            maxValue = value;
            min = bytes;
            max = bytes;
        } else if (order.compare(bytes, min) < 0) {
            minValue = value;
            min = bytes;
        } else if (order.compare(bytes, max) > 0) {
            maxValue = value;
            max = bytes;
        }
    }

    long nulls() {
        return nulls;
    }

    /** The minimum as {@code parquet_metadata} prints it, or null if there are only nulls. */
    String minText() {
        return minValue == null ? null : minValue.toString();
    }

    String maxText() {
        return maxValue == null ? null : maxValue.toString();
    }

    /** Checks a page's statistics from the column index against those expected. */
    void check(PageIndexes.Page page, String where) {
        assertEquals(nulls, page.nulls(), where + ": nulls");
        assertEquals(min == null, page.nullsOnly(), where + ": nulls only");
        assertEquals(min, page.min(), where + ": min");
        assertEquals(max, page.max(), where + ": max");
    }

    private static ByteBuffer plain(Object value) {
        if (value instanceof String) {
            return ByteBuffer.wrap(((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (value instanceof Boolean) {
            return ByteBuffer.wrap(new byte[] {(byte) ((Boolean) value ? 1 : 0)});
        } else if (value instanceof Integer) {
            return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (Integer) value);
        } else if (value instanceof Long) {
            return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, (Long) value);
        }
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, (Double) value);
    }

    private static Comparator<ByteBuffer> orderOf(Object value) {
        if (value instanceof String || value instanceof Boolean) {
            return UNSIGNED_BYTES;
        } else if (value instanceof Integer) {
            return Comparator.comparingInt(b -> b.getInt(0));
        } else if (value instanceof Long) {
            return Comparator.comparingLong(b -> b.getLong(0));
        }
        return Comparator.comparingDouble(b -> b.getDouble(0));
    }
}
