package dev.parq.sink.dictionary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import dev.parq.sink.page.StringBounds;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.statistics.Statistics;

/**
 * The dictionary of one column chunk of strings, its page entries a 4-byte length and the bytes.
 * Values are looked up by their bytes where they lie, and ordered as unsigned bytes.
 */
final class StringDictionary extends ColumnDictionary {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] page = new byte[4096];
    private int pageLength;
    /** Per id, where its bytes start in {@link #page} and how many there are. */
    private int[] starts = new int[256];
    private int[] lengths = new int[256];

    private final StringBounds bounds;

    StringDictionary(int maxPageBytes, StringBounds bounds) {
        super(maxPageBytes);
        this.bounds = bounds;
    }

    @Override
    int pageBytes() {
        return pageLength;
    }

    @Override
    long entryBytes() {
        return page.length + (long) Integer.BYTES * (starts.length + lengths.length);
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
                    && sameBytes(page, starts[id], bytes, from, length)) {
                return id;
            }
        }
        if (!fits(Integer.BYTES + length)) {
            return -1;
        }
        return add(bytes, from, length, hash, slot);
    }

    private int add(byte[] bytes, int from, int length, int hash, int slot) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            lengths = Arrays.copyOf(lengths, size * 2);
        }
        if (pageLength + Integer.BYTES + length > page.length) {
            page = Arrays.copyOf(page, Math.max(pageLength + Integer.BYTES + length, page.length * 2));
        }
        INT.set(page, pageLength, length);
        System.arraycopy(bytes, from, page, pageLength + Integer.BYTES, length);
        starts[size] = pageLength + Integer.BYTES;
        lengths[size] = length;
        pageLength += Integer.BYTES + length;
        return register(hash, slot);
    }

    @Override
    int compare(int id, int other) {
        return Arrays.compareUnsigned(page, starts[id], starts[id] + lengths[id],
                page, starts[other], starts[other] + lengths[other]);
    }

    @Override
    int plainLength(int id) {
        return Integer.BYTES + lengths[id];
    }

    /**
     * Parquet's statistics copy the value, which is only valid until the dictionary changes; a
     * long one is given as a short bound of it, lower or upper as {@code upper} says.
     */
    @Override
    void updateStatistics(Statistics<?> statistics, int id, boolean upper) {
        statistics.updateStats(upper ? bounds.upper(page, starts[id], lengths[id])
                : bounds.lower(page, starts[id], lengths[id]));
    }

    @Override
    BytesInput page() {
        return BytesInput.from(page, 0, pageLength);
    }

    /**
     * Whether page[start, start + length) holds the bytes of bytes[from, from + length). Values
     * of up to 64 bytes, nearly all of a log's dictionary columns, are compared as words here,
     * which is cheaper than the JDK's comparison: its byte loop for ranges under 8 bytes, its call
     * into the vectorized comparison above. Under 8 bytes one masked word, else words from the
     * start and one that ends at the end.
     */
    static boolean sameBytes(byte[] page, int start, byte[] bytes, int from, int length) {
        if (length < Long.BYTES) {
            if (length == 0) {
                return true;
            }
            if (start + Long.BYTES > page.length || from + Long.BYTES > bytes.length) {
                return Arrays.equals(page, start, start + length, bytes, from, from + length);
            }
            long differ = (long) LONG.get(page, start) ^ (long) LONG.get(bytes, from);
            return (differ & (-1L >>> (Long.SIZE - Byte.SIZE * length))) == 0;
        }
        if (length > 8 * Long.BYTES) {
            return Arrays.equals(page, start, start + length, bytes, from, from + length);
        }
        int last = length - Long.BYTES;
        for (int i = 0; i < last; i += Long.BYTES) {
            if ((long) LONG.get(page, start + i) != (long) LONG.get(bytes, from + i)) {
                return false;
            }
        }
        return (long) LONG.get(page, start + last) == (long) LONG.get(bytes, from + last);
    }

    /**
     * A hash of the bytes: two independent lanes of 8-byte words, so that one word's
     * multiplication does not wait for the previous word's, and the last bytes read as one word
     * (overlapping the ones before, or masked when the value is shorter than a word). A third
     * faster than one lane and a byte loop for the tail, on 80-120 byte messages, and twice as
     * fast on short values.
     */
    static int hash(byte[] bytes, int from, int length) {
        long a = 0x9E3779B97F4A7C15L ^ length;
        long b = 0xC2B2AE3D27D4EB4FL;
        int i = from;
        int end = from + length;
        for (; i + 2 * Long.BYTES <= end; i += 2 * Long.BYTES) {
            a = Long.rotateLeft((a ^ (long) LONG.get(bytes, i)) * 0xFF51AFD7ED558CCDL, 31);
            b = Long.rotateLeft((b ^ (long) LONG.get(bytes, i + Long.BYTES)) * 0x94D049BB133111EBL, 29);
        }
        if (i + Long.BYTES <= end) {
            a = Long.rotateLeft((a ^ (long) LONG.get(bytes, i)) * 0xFF51AFD7ED558CCDL, 31);
            i += Long.BYTES;
        }
        if (i < end) {
            long tail;
            if (length >= Long.BYTES) {
                tail = (long) LONG.get(bytes, end - Long.BYTES);
            } else if (from + Long.BYTES <= bytes.length) {
                tail = (long) LONG.get(bytes, from) & (-1L >>> (Long.SIZE - Byte.SIZE * length));
            } else {
                tail = 0;
                for (int shift = 0; i < end; i++, shift += Byte.SIZE) {
                    tail |= (bytes[i] & 0xFFL) << shift;
                }
            }
            b = (b ^ tail) * 0xFF51AFD7ED558CCDL;
        }
        long h = (a ^ Long.rotateLeft(b, 17)) * 0xC4CEB9FE1A85EC53L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }
}
