package dev.parq.sink.plan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import dev.parq.sink.record.ColumnStriper;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Takes the place of a column's Parquet writer while its {@link ColumnStriper} walks the first
 * rows of a file, and counts how often each value occurs, to judge whether dictionary encoding
 * pays for the column.
 *
 * <p>Values are kept as 64-bit hashes in an open-addressing table; a collision merely undercounts
 * by one.
 */
final class DistinctValueSample implements ColumnWriter {

    /** Fewer values than this say too little, and leave the choice to parquet-mr's own fallback. */
    static final int MIN_VALUES = 256;

    /**
     * Above this share of distinct values among the values a row group holds, dictionary lookups
     * cost more CPU than the smaller pages are worth: each value is hashed and compared against a
     * dictionary entry that is rarely in cache.
     */
    static final double MAX_DISTINCT_SHARE = 0.2;

    /**
     * Below this share of the sample's second half repeating values of its first half, the
     * values are taken to run in sequence (timestamps, counters), where a dictionary only grows:
     * a row group holds ever new values that no sample of its first rows can tell.
     */
    static final double MIN_REPEAT_SHARE = 0.05;

    private final int maxValues;
    /** Hashes of the distinct values, 0 marking a free slot, how often each was seen, and when first. */
    private final long[] hashes;
    private final int[] counts;
    private final int[] firstSeen;
    /** The slot of each sampled value, in order. */
    private final int[] sequence;
    private int distinct;
    private int values;
    private long valueBytes;

    public DistinctValueSample(int maxValues) {
        this.maxValues = maxValues;
        int slots = Integer.highestOneBit(Math.max(maxValues, 1)) * 4;
        this.hashes = new long[slots];
        this.counts = new int[slots];
        this.firstSeen = new int[slots];
        this.sequence = new int[Math.max(maxValues, 0)];
    }

    public boolean isFull() {
        return values >= maxValues;
    }

    /** Bytes of the sampled values, as plain encoding would store them. */
    public long valueBytes() {
        return valueBytes;
    }

    /**
     * Whether dictionary encoding pays for the column: values of the sample's first half recur
     * in its second (at least {@link #MIN_REPEAT_SHARE} of it), and the number of distinct values
     * the column has overall, estimated from the sample (Chao1: the values seen once and twice tell how many
     * were not seen at all), and not on the sample's own share of distinct values: a column that
     * repeats a few thousand messages has a sample of mostly distinct values, yet a small
     * dictionary. The estimate must be at most {@link #MAX_DISTINCT_SHARE} of the values a
     * row group holds, {@code rowGroupRows} rows of {@code sampledRows} rows' worth of values
     * each, and the distinct values fit into a dictionary page of {@code dictionaryPageSize}
     * bytes; a column whose dictionary outgrows the page falls back to plain encoding, after
     * hashing every value until then.
     */
    public boolean dictionaryPays(int dictionaryPageSize, int sampledRows, long rowGroupRows) {
        if (values < MIN_VALUES) {
            return true;
        }
        int seenOnce = 0;
        int seenTwice = 0;
        for (int count : counts) {
            if (count == 1) {
                seenOnce++;
            } else if (count == 2) {
                seenTwice++;
            }
        }
        int half = values / 2;
        int repeats = 0;
        for (int i = half; i < values; i++) {
            if (firstSeen[sequence[i]] < half) {
                repeats++;
            }
        }
        if (repeats < MIN_REPEAT_SHARE * (values - half)) {
            return false;
        }
        double estimated = distinct + (double) seenOnce * (seenOnce - 1) / (2.0 * (seenTwice + 1));
        double rowGroupValues = Math.max(values, (double) values / Math.max(1, sampledRows) * rowGroupRows);
        return estimated <= MAX_DISTINCT_SHARE * rowGroupValues
                && estimated * valueBytes / values <= dictionaryPageSize;
    }

    private void add(long hash, int bytes) {
        if (values >= maxValues) {
            return;
        }
        long key = hash == 0 ? 1 : hash;
        int mask = hashes.length - 1;
        int slot = (int) key & mask;
        while (hashes[slot] != 0 && hashes[slot] != key) {
            slot = (slot + 1) & mask;
        }
        if (hashes[slot] == 0) {
            hashes[slot] = key;
            firstSeen[slot] = values;
            distinct++;
        }
        counts[slot]++;
        sequence[values] = slot;
        values++;
        valueBytes += bytes;
    }

    private static long mix(long x) {
        long z = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    @Override
    public void write(int value, int repetitionLevel, int definitionLevel) {
        add(mix(value), Integer.BYTES);
    }

    @Override
    public void write(long value, int repetitionLevel, int definitionLevel) {
        add(mix(value), Long.BYTES);
    }

    @Override
    public void write(boolean value, int repetitionLevel, int definitionLevel) {
        add(mix(value ? 1 : 2), 1);
    }

    @Override
    public void write(Binary value, int repetitionLevel, int definitionLevel) {
        ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long hash = 0x9E3779B97F4A7C15L;
        int i = bytes.position();
        for (; i + Long.BYTES <= bytes.limit(); i += Long.BYTES) {
            hash = Long.rotateLeft((hash ^ bytes.getLong(i)) * 0x100000001B3L, 29);
        }
        for (; i < bytes.limit(); i++) {
            hash = (hash ^ bytes.get(i)) * 0x100000001B3L;
        }
        // A dictionary entry is the value plus its 4-byte length.
        add(mix(hash ^ bytes.remaining()), bytes.remaining() + Integer.BYTES);
    }

    @Override
    public void write(float value, int repetitionLevel, int definitionLevel) {
        add(mix(Float.floatToIntBits(value)), Float.BYTES);
    }

    @Override
    public void write(double value, int repetitionLevel, int definitionLevel) {
        add(mix(Double.doubleToLongBits(value)), Double.BYTES);
    }

    @Override
    public void writeNull(int repetitionLevel, int definitionLevel) {
    }

    @Override
    public void close() {
    }

    @Override
    public long getBufferedSizeInMemory() {
        return 0;
    }
}
