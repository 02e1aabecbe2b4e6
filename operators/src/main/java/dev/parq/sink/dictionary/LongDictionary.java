package dev.parq.sink.dictionary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.statistics.Statistics;

/**
 * The dictionary of one column chunk of 32- or 64-bit integers (INT32 or INT64), its page entries
 * the values little-endian in their width. Values are ordered as signed numbers.
 */
final class LongDictionary extends ColumnDictionary {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int width;
    private long[] values = new long[256];
    private byte[] page = new byte[2048];

    /** A dictionary of values {@code width} bytes wide, 4 or 8, whose page holds at most {@code maxPageBytes}. */
    LongDictionary(int width, int maxPageBytes) {
        super(maxPageBytes);
        this.width = width;
    }

    int width() {
        return width;
    }

    @Override
    int pageBytes() {
        return size * width;
    }

    @Override
    long entryBytes() {
        return page.length + (long) Long.BYTES * values.length;
    }

    /** The id of {@code value}, which becomes a new entry if it is not one yet; -1 if it would not fit. */
    int idOf(long value) {
        long mixed = (value ^ (value >>> 33)) * 0xFF51AFD7ED558CCDL;
        int hash = (int) (mixed ^ (mixed >>> 29) ^ (mixed >>> 47));
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (int entry; (entry = slots[slot]) != 0; slot = (slot + 1) & mask) {
            if (values[entry - 1] == value) {
                return entry - 1;
            }
        }
        if (!fits(width)) {
            return -1;
        }
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        if (pageBytes() + width > page.length) {
            page = Arrays.copyOf(page, page.length * 2);
        }
        if (width == Integer.BYTES) {
            INT.set(page, pageBytes(), (int) value);
        } else {
            LONG.set(page, pageBytes(), value);
        }
        values[size] = value;
        return register(hash, slot);
    }

    @Override
    int plainLength(int id) {
        return width;
    }

    @Override
    int compare(int id, int other) {
        return Long.compare(values[id], values[other]);
    }

    @Override
    void updateStatistics(Statistics<?> statistics, int id, boolean upper) {
        if (width == Integer.BYTES) {
            statistics.updateStats((int) values[id]);
        } else {
            statistics.updateStats(values[id]);
        }
    }

    @Override
    BytesInput page() {
        return BytesInput.from(page, 0, pageBytes());
    }
}
