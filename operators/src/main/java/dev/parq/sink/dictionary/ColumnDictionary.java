package dev.parq.sink.dictionary;

import java.util.Arrays;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.statistics.Statistics;

/**
 * The dictionary of one column chunk: each distinct value gets the next id and is kept once,
 * already laid out as the PLAIN dictionary page. Values are found through an open-addressing
 * table of ids keyed by a hash of the value, at most half full, so that a lookup allocates
 * nothing; each kind of value keeps its own entries and says when two are equal.
 */
abstract class ColumnDictionary {

    protected final int maxPageBytes;
    protected int size;
    /** Per id, the hash of its value. */
    protected int[] hashes = new int[256];
    /** Id plus one of the value hashed to each slot, 0 for a free slot. */
    protected int[] slots = new int[512];

    /** A dictionary whose page grows no larger than {@code maxPageBytes}, bar its first value. */
    ColumnDictionary(int maxPageBytes) {
        this.maxPageBytes = maxPageBytes;
    }

    final int size() {
        return size;
    }

    /** Bytes of the dictionary page so far. */
    abstract int pageBytes();

    /** Heap bytes the dictionary holds, as allocated: its page and its lookup table. */
    final long heapBytes() {
        return (long) Integer.BYTES * (hashes.length + slots.length) + entryBytes();
    }

    /** Heap bytes of the arrays that hold the entries, as allocated. */
    abstract long entryBytes();

    /** Bytes the value of {@code id} takes in a PLAIN page. */
    abstract int plainLength(int id);

    /** Compares the values of two ids in the order of Parquet's statistics of the column. */
    abstract int compare(int id, int other);

    /**
     * Puts the value of {@code id} into {@code statistics}, as the page's minimum or, where
     * {@code upper}, its maximum (which matters only where a value is given as a bound of it).
     */
    abstract void updateStatistics(Statistics<?> statistics, int id, boolean upper);

    /** The PLAIN dictionary page, valid until the dictionary changes. */
    abstract BytesInput page();

    /** Whether new values of {@code plainBytes} bytes in all would all fit into the page. */
    final boolean hasRoomFor(long plainBytes) {
        return pageBytes() + plainBytes <= maxPageBytes;
    }

    /** Whether a value of {@code plainBytes} bytes fits into an empty dictionary page. */
    final boolean couldHold(long plainBytes) {
        return plainBytes <= maxPageBytes;
    }

    /** Whether a value of {@code plainBytes} bytes would leave the page within its limit, or is the first. */
    protected final boolean fits(int plainBytes) {
        return size == 0 || pageBytes() + plainBytes <= maxPageBytes;
    }

    /** Records the hash of the value just given id {@link #size}, in free slot {@code slot}; returns the id. */
    protected final int register(int hash, int slot) {
        if (size == hashes.length) {
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        int id = size++;
        hashes[id] = hash;
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
            slots = new int[slots.length * 2];
            int mask = slots.length - 1;
            for (int other = 0; other < size; other++) {
                int free = hashes[other] & mask;
                while (slots[free] != 0) {
                    free = (free + 1) & mask;
                }
                slots[free] = other + 1;
            }
        }
        return id;
    }
}
