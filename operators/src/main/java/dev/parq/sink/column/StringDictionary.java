package dev.parq.sink.column;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.io.api.Binary;

/**
 * The dictionary of one column chunk of strings: each distinct value gets the next id, and is kept
 * once, already laid out as the PLAIN dictionary page (4-byte length, then the bytes). Values are
 * looked up by their bytes where they lie, in an open-addressing table of ids keyed by a hash
 * of the bytes, so that a lookup allocates nothing.
 */
final class StringDictionary {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final int maxPageBytes;
    private byte[] page = new byte[4096];
    private int pageLength;
    /** Per id, where its bytes start in {@link #page}, how many there are, and their hash. */
    private int[] starts = new int[256];
    private int[] lengths = new int[256];
    private int[] hashes = new int[256];
    private int size;
    /** Id plus one of the value hashed to each slot, 0 for a free slot; at most half full. */
    private int[] slots = new int[512];

    /** A dictionary whose page grows no larger than {@code maxPageBytes}, bar its first value. */
    StringDictionary(int maxPageBytes) {
        this.maxPageBytes = maxPageBytes;
    }

    int size() {
        return size;
    }

    int pageBytes() {
        return pageLength;
    }

    /** Whether {@code values} new values of {@code bytes} bytes in all would fit into the page. */
    boolean hasRoomFor(int values, int bytes) {
        return pageLength + (long) values * Integer.BYTES + bytes <= maxPageBytes;
    }

    /**
     * The id of {@code length} bytes of {@code bytes} from {@code from}, which become a new entry
     * if they are not one yet; -1 if they are not, and would take the page beyond its limit.
     */
    int idOf(byte[] bytes, int from, int length) {
        int hash = hash(bytes, from, length);
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (int entry; (entry = slots[slot]) != 0; slot = (slot + 1) & mask) {
            int id = entry - 1;
            if (hashes[id] == hash && lengths[id] == length
                    && Arrays.equals(page, starts[id], starts[id] + length, bytes, from, from + length)) {
                return id;
            }
        }
        if (size > 0 && pageLength + Integer.BYTES + length > maxPageBytes) {
            return -1;
        }
        return add(bytes, from, length, hash, slot);
    }

    private int add(byte[] bytes, int from, int length, int hash, int slot) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            lengths = Arrays.copyOf(lengths, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        if (pageLength + Integer.BYTES + length > page.length) {
            page = Arrays.copyOf(page, Math.max(pageLength + Integer.BYTES + length, page.length * 2));
        }
        INT.set(page, pageLength, length);
        System.arraycopy(bytes, from, page, pageLength + Integer.BYTES, length);
        int id = size++;
        starts[id] = pageLength + Integer.BYTES;
        lengths[id] = length;
        hashes[id] = hash;
        pageLength += Integer.BYTES + length;
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int slot = hashes[id] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id + 1;
        }
    }

    /** Compares the values of two ids as unsigned bytes, the order of Parquet's string statistics. */
    int compare(int id, int other) {
        return Arrays.compareUnsigned(page, starts[id], starts[id] + lengths[id],
                page, starts[other], starts[other] + lengths[other]);
    }

    int length(int id) {
        return lengths[id];
    }

    /** The value of {@code id}, valid until the dictionary changes; Parquet's statistics copy it. */
    Binary value(int id) {
        return Binary.fromReusedByteArray(page, starts[id], lengths[id]);
    }

    /** The PLAIN dictionary page, valid until the dictionary changes. */
    BytesInput page() {
        return BytesInput.from(page, 0, pageLength);
    }

    private static int hash(byte[] bytes, int from, int length) {
        long h = 0x9E3779B97F4A7C15L ^ length;
        int i = from;
        int end = from + length;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            h = Long.rotateLeft((h ^ (long) LONG.get(bytes, i)) * 0xFF51AFD7ED558CCDL, 31);
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (bytes[i] & 0xFFL) << shift;
        }
        h = (h ^ tail) * 0xC4CEB9FE1A85EC53L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }
}
