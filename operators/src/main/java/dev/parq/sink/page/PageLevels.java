package dev.parq.sink.page;

import java.util.List;

/**
 * The definition or repetition levels of the page being filled, one per slot (value or null),
 * appended as the slots are and encoded in the RLE/bit-packed hybrid, after their 4-byte length,
 * when the page is written. Levels of one bit (those of a column directly under the message, or
 * the repetition of an ARRAY) are kept and encoded as a bitmap; wider ones as they are.
 */
abstract class PageLevels {

    protected final int maxLevel;
    protected int count;
    protected int belowMax;

    PageLevels(int maxLevel) {
        this.maxLevel = maxLevel;
    }

    static PageLevels upTo(int maxLevel) {
        return maxLevel == 1 ? new BitmapLevels() : new WideLevels(maxLevel);
    }

    /** How many levels there are, one per slot. */
    final int count() {
        return count;
    }

    /** Levels below the highest: for definition levels, the slots without a value. */
    final int belowMax() {
        return belowMax;
    }

    /** Appends the first {@code count} of {@code levels}, those of the next slots. */
    abstract void append(int[] levels, int count);

    /** Appends the levels, with their length in front, to {@code out}. */
    abstract void writeTo(ByteSink out);

    /** How many slots of the page have each level, from 0 to the highest. */
    abstract List<Long> histogram();

    /** Heap bytes of the levels' array, as allocated. */
    abstract long heapBytes();

    /** Forgets the page's levels. */
    abstract void clear();
}
