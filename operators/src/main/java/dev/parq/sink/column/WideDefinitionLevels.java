package dev.parq.sink.column;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Definition levels of a column under one or more ROWs, one int each until the page is encoded. */
final class WideDefinitionLevels extends DefinitionLevels {

    private final int bitWidth;
    private final long[] counts;
    private int[] levels = new int[1024];

    WideDefinitionLevels(int maxLevel) {
        super(maxLevel);
        this.bitWidth = RleHybridEncoder.bitWidth(maxLevel);
        this.counts = new long[maxLevel + 1];
    }

    @Override
    void reserve(int more) {
        if (rows + more > levels.length) {
            levels = Arrays.copyOf(levels, Math.max(rows + more, levels.length * 2));
        }
    }

    @Override
    boolean append(int level) {
        levels[rows++] = level;
        counts[level]++;
        if (level == maxLevel) {
            return true;
        }
        nulls++;
        return false;
    }

    @Override
    void writeTo(ByteSink out) {
        int lengthAt = out.openLength();
        RleHybridEncoder.encode(levels, rows, bitWidth, out);
        out.closeLength(lengthAt);
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
        rows = 0;
        nulls = 0;
        Arrays.fill(counts, 0);
    }
}
