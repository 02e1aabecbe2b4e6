package dev.parq.sink.compact.convert;

import javax.annotation.Nullable;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * A group that repeats: the records of a file, the {@code list} group of a LIST (one element
 * each) or the {@code key_value} group of a MAP (one entry each). Each one fills the next slot of
 * the vectors below it; a map's entry also marks its slot of the entries' struct set. An element
 * whose value is absent is a null element.
 */
final class RepeatedConverter extends GroupConverter {

    private final Cursor cursor;
    private final Converter[] fields;
    @Nullable
    private final StructVector entries;

    RepeatedConverter(Cursor cursor, Converter[] fields, @Nullable StructVector entries) {
        this.cursor = cursor;
        this.fields = fields;
        this.entries = entries;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return fields[fieldIndex];
    }

    @Override
    public void start() {
        if (entries != null) {
            entries.setIndexDefined(cursor.index);
        }
    }

    @Override
    public void end() {
        cursor.index++;
    }
}
