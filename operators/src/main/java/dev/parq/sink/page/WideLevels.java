package dev.parq.sink.page;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Levels of more than one bit, one int each until the page is encoded. */
final class WideLevels extends PageLevels {

    private final int bitWidth;
    private final long[] counts;
    private int[] levels = new int[1024];

    WideLevels(int maxLevel) {
        super(maxLevel);
        this.bitWidth = RleHybridEncoder.bitWidth(maxLevel);
        this.counts = new long[maxLevel + 1];
    }

    @Override
    void append(int[] more, int slots) {
        if (count + slots > levels.length) {
            levels = Arrays.copyOf(levels, Math.max(count + slots, levels.length * 2));
        }
        System.arraycopy(more, 0, levels, count, slots);
        count += slots;
        for (int i = 0; i < slots; i++) {
            counts[more[i]]++;
        }
        belowMax = count - (int) counts[maxLevel];
    }

    @Override
    void writeTo(ByteSink out) {
        int lengthAt = out.openLength();
        RleHybridEncoder.encode(levels, count, bitWidth, out);
        out.closeLength(lengthAt);
    }

    @Override
    long heapBytes() {
        return (long) Integer.BYTES * levels.length;
    }

    @Override
    List<Long> histogram() {
        List<Long> histogram = new ArrayList<>(counts.length);
        for (long count : counts) {
            histogram.add(count);
        }
        return histogram;
    }

    @Override
    void clear() {
        count = 0;
        belowMax = 0;
        Arrays.fill(counts, 0);
    }
}
