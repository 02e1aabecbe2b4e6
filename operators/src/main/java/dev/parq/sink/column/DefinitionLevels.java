package dev.parq.sink.column;

import java.util.List;

/**
 * The definition levels of the page being filled, one per row of a column that is repeated
 * nowhere, appended as the rows are and encoded in the RLE/bit-packed hybrid, after their 4-byte
 * length, when the page is written. A column directly under the message has levels of one bit,
 * kept and encoded as a bitmap; a column under ROWs has wider levels.
 */
abstract class DefinitionLevels {

    protected final int maxLevel;
    protected int rows;
    protected int nulls;

    DefinitionLevels(int maxLevel) {
        this.maxLevel = maxLevel;
    }

    static DefinitionLevels upTo(int maxLevel) {
        return maxLevel == 1 ? new BitmapDefinitionLevels() : new WideDefinitionLevels(maxLevel);
    }

    final int rows() {
        return rows;
    }

    /** Rows whose leaf value is null, or missing under a null ROW. */
    final int nulls() {
        return nulls;
    }

    /** Makes room for {@code more} rows beyond those appended. */
    abstract void reserve(int more);

    /** Appends the next row's level; returns whether its leaf value is present. */
    abstract boolean append(int level);

    /** Appends the levels, with their length in front, to {@code out}. */
    abstract void writeTo(ByteSink out);

    /** How many rows of the page have each level, from 0 to the highest. */
    abstract List<Long> histogram();

    /** Forgets the page's rows. */
    abstract void clear();
}
