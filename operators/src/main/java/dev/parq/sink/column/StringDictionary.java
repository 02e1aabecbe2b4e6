package dev.parq.sink.column;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

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

    StringDictionary(int maxPageBytes) {
        super(maxPageBytes);
    }

    @Override
    int pageBytes() {
        return pageLength;
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

    /** Parquet's statistics copy the value, which is only valid until the dictionary changes. */
    @Override
    void updateStatistics(Statistics<?> statistics, int id) {
        statistics.updateStats(Binary.fromReusedByteArray(page, starts[id], lengths[id]));
    }

    @Override
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
