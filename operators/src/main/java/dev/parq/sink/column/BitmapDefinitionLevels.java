package dev.parq.sink.column;

import java.util.Arrays;
import java.util.List;

/**
 * Definition levels of a column directly under the message, one bit each, kept as a bitmap
 * (bit {@code i} set when row {@code i} is not null) that is encoded without looking at the
 * levels one by one: runs of at least 16 equal levels, counted in whole bytes of levels, become
 * RLE runs; whatever is between them becomes bit-packed groups of 8, which are the bitmap's bytes
 * as they are.
 */
final class BitmapDefinitionLevels extends DefinitionLevels {

    private long[] defined = new long[64];

    BitmapDefinitionLevels() {
        super(1);
    }

    @Override
    void reserve(int more) {
        int words = (rows + more + 63) >>> 6;
        if (words > defined.length) {
            defined = Arrays.copyOf(defined, Math.max(words, defined.length * 2));
        }
    }

    @Override
    boolean append(int level) {
        if (level != 0) {
            defined[rows >>> 6] |= 1L << rows;
        } else {
            nulls++;
        }
        rows++;
        return level != 0;
    }

    @Override
    List<Long> histogram() {
        return List.of((long) nulls, (long) (rows - nulls));
    }

    @Override
    void clear() {
        Arrays.fill(defined, 0, (rows + 63) >>> 6, 0L);
        rows = 0;
        nulls = 0;
    }

    @Override
    void writeTo(ByteSink out) {
        int wholeBytes = rows >>> 3;
        int tail = rows & 7;
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
        return (int) (defined[at >>> 3] >>> ((at & 7) << 3)) & 0xFF;
    }
}
