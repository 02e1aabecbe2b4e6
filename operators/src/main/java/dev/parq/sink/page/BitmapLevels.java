package dev.parq.sink.page;

import java.util.Arrays;
import java.util.List;

/**
 * Levels of one bit, kept as a bitmap (bit {@code i} set when slot {@code i} has level 1) that is
 * encoded without looking at the levels one by one: runs of at least 16 equal levels, counted in
 * whole bytes of levels, become RLE runs; whatever is between them becomes bit-packed groups of 8,
 * which are the bitmap's bytes as they are.
 */
final class BitmapLevels extends PageLevels {

    private long[] bits = new long[64];

    BitmapLevels() {
        super(1);
    }

    @Override
    void append(int[] levels, int slots) {
        int words = (count + slots + 63) >>> 6;
        if (words > bits.length) {
            bits = Arrays.copyOf(bits, Math.max(words, bits.length * 2));
        }
        int ones = 0;
        for (int i = 0; i < slots; i++, count++) {
            long bit = levels[i];
            bits[count >>> 6] |= bit << count;
            ones += (int) bit;
        }
        belowMax += slots - ones;
    }

    @Override
    long heapBytes() {
        return (long) Long.BYTES * bits.length;
    }

    @Override
    List<Long> histogram() {
        return List.of((long) belowMax, (long) (count - belowMax));
    }

    @Override
    void clear() {
        Arrays.fill(bits, 0, (count + 63) >>> 6, 0L);
        count = 0;
        belowMax = 0;
    }

    @Override
    void writeTo(ByteSink out) {
        int wholeBytes = count >>> 3;
        int tail = count & 7;
        int lengthAt = out.openLength();
        out.reserve(2 * wholeBytes + 16);
        int i = 0;
        boolean tailDone = tail == 0;
        while (i < wholeBytes) {
            if (startsRun(i, wholeBytes)) {
                int value = levelByte(i);
                int j = i + 2;
                while (j < wholeBytes && levelByte(j) == value) {
                    j++;
                }
                long count = (long) (j - i) * 8;
                if (j == wholeBytes && !tailDone && levelByte(j) == (value & ((1 << tail) - 1))) {
                    count += tail;
                    tailDone = true;
                }
                out.putVarInt(count << 1);
                out.put(value & 1);
                i = j;
            } else {
                int j = i + 1;
                while (j < wholeBytes && !startsRun(j, wholeBytes)) {
                    j++;
                }
                out.putVarInt(((long) (j - i) << 1) | 1);
                out.reserve(j - i);
                for (int k = i; k < j; k++) {
                    out.put(levelByte(k));
                }
                i = j;
            }
        }
        if (!tailDone) {
            out.putVarInt((1L << 1) | 1);
            out.reserve(1);
            out.put(levelByte(wholeBytes));
        }
        out.closeLength(lengthAt);
    }

    private boolean startsRun(int at, int wholeBytes) {
        int value = levelByte(at);
        return (value == 0 || value == 0xFF) && at + 1 < wholeBytes && levelByte(at + 1) == value;
    }

    /** Levels {@code 8 * at} to {@code 8 * at + 7}, the first in the lowest bit. */
    private int levelByte(int at) {
        return (int) (bits[at >>> 3] >>> ((at & 7) << 3)) & 0xFF;
    }
}
