package dev.parq.sink.record;

import org.apache.arrow.vector.complex.ListVector;
import org.apache.parquet.column.ColumnWriter;

/**
 * An optional ARRAY, or MAP (an Arrow list of entries): the optional LIST/MAP group and its
 * repeated group are two definition levels; each entry after the first repeats at this list's
 * repetition level. An empty list is defined at the group's level and has no entries.
 */
final class RepeatedStriper implements ColumnStriper {

    private final ListVector vector;
    private final ColumnStriper entry;
    private final int ownRepetitionLevel;

    RepeatedStriper(ListVector vector, ColumnStriper entry, int ownRepetitionLevel) {
        this.vector = vector;
        this.entry = entry;
        this.ownRepetitionLevel = ownRepetitionLevel;
    }

    @Override
    public void write(ColumnWriter column, int index, int repetitionLevel, int definitionLevel) {
        if (vector.isNull(index)) {
            column.writeNull(repetitionLevel, definitionLevel);
            return;
        }
        int start = vector.getElementStartIndex(index);
        int end = vector.getElementEndIndex(index);
        if (start == end) {
            column.writeNull(repetitionLevel, definitionLevel + 1);
            return;
        }
        entry.write(column, start, repetitionLevel, definitionLevel + 2);
        for (int i = start + 1; i < end; i++) {
            entry.write(column, i, ownRepetitionLevel, definitionLevel + 2);
        }
    }
}
