package dev.parq.sink.compact.convert;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * ROW: a Parquet group into a struct vector. A group that is there marks its slot set, and its
 * fields fill the same slot of their vectors; an absent group leaves the slot, and theirs, null.
 */
final class StructConverter extends GroupConverter {

    private final StructVector vector;
    private final Cursor cursor;
    private final Converter[] fields;

    StructConverter(StructVector vector, Cursor cursor, ByteCount bytes) {
        this.vector = vector;
        this.cursor = cursor;
        this.fields = ArrowConverters.of(vector.getChildrenFromFields(), cursor, bytes);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return fields[fieldIndex];
    }

    @Override
    public void start() {
        vector.setIndexDefined(cursor.index);
    }

    @Override
    public void end() {}
}
