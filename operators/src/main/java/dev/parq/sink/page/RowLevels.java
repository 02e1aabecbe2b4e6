package dev.parq.sink.page;

import java.util.Arrays;

/**
 * The levels of a range of rows of one leaf column, worked out from the Arrow vectors by a
 * {@link LeafPath} before any of it goes into a page: per slot (a value or a null at some level;
 * a row of a list has one per element) its repetition and definition level, and the index in the
 * leaf vector of each present value. Reused from range to range.
 */
public final class RowLevels {

    int[] repetition = new int[1024];
    int[] definition = new int[1024];
    int slots;
    private int[] values = new int[1024];
    private int valueCount;
    private int maxDefinitionLevel;

    /** The leaf vector's index of each present value, in slot order; valid until the next range. */
    public int[] valueIndexes() {
        return values;
    }

    /** How many of the slots have a value. */
    public int valueCount() {
        return valueCount;
    }

    /** Forgets the slots; makes room for {@code slots} of them; a value is present at {@code maxDefinitionLevel}. */
    void reset(int slots, int maxDefinitionLevel) {
        this.slots = 0;
        this.valueCount = 0;
        this.maxDefinitionLevel = maxDefinitionLevel;
        if (slots > definition.length) {
            int size = Math.max(slots, definition.length * 2);
            repetition = new int[size];
            definition = new int[size];
            values = new int[size];
        }
    }

    /** Adds a slot with no value. */
    void addNull(int repetitionLevel, int definitionLevel) {
        repetition[slots] = repetitionLevel;
        definition[slots++] = definitionLevel;
    }

    /** Adds a slot with the value at {@code index} of the leaf vector. */
    void addValue(int repetitionLevel, int index) {
        repetition[slots] = repetitionLevel;
        definition[slots++] = maxDefinitionLevel;
        values[valueCount++] = index;
    }

    /** Adds slots of the values at indexes {@code from} to {@code to} of the leaf vector, each a row of its own. */
    void addValues(int from, int to) {
        int count = to - from;
        Arrays.fill(repetition, slots, slots + count, 0);
        Arrays.fill(definition, slots, slots + count, maxDefinitionLevel);
        for (int i = 0; i < count; i++) {
            values[valueCount + i] = from + i;
        }
        slots += count;
        valueCount += count;
    }

    /** The first slot of the row holding the present value {@code value}. */
    public int rowStartOf(int value) {
        int slot = 0;
        for (int seen = -1; ; slot++) {
            if (definition[slot] == maxDefinitionLevel && ++seen == value) {
                break;
            }
        }
        while (repetition[slot] != 0) {
            slot--;
        }
        return slot;
    }

    /** How many rows start before {@code slot}. */
    int rowsBefore(int slot) {
        int rows = 0;
        for (int s = 0; s < slot; s++) {
            if (repetition[s] == 0) {
                rows++;
            }
        }
        return rows;
    }

    /** How many present values there are before {@code slot}. */
    public int valuesBefore(int slot) {
        return (int) Arrays.stream(definition, 0, slot).filter(level -> level == maxDefinitionLevel).count();
    }
}
