package dev.parq.sink.compact.convert;

import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * ARRAY and MAP: Parquet's three-level LIST or MAP group into a list or map vector. A group that is
 * there starts a list at its slot, whose elements (entries) the repeated group below fills from the
 * list's first element slot on; an empty group is an empty list, an absent one a null list.
 */
final class ListConverter extends GroupConverter {

    private final ListVector vector;
    private final Cursor cursor;
    private final Cursor elements;
    private final RepeatedConverter repeated;
    private int first;

    private ListConverter(ListVector vector, Cursor cursor, Cursor elements, RepeatedConverter repeated) {
        this.vector = vector;
        this.cursor = cursor;
        this.elements = elements;
        this.repeated = repeated;
    }

    /** ARRAY: the {@code list} group holds the element. */
    static ListConverter ofList(ListVector vector, Cursor cursor, ByteCount bytes) {
        Cursor elements = new Cursor();
        Converter element = ArrowConverters.of(vector.getDataVector(), elements, bytes);
        return new ListConverter(vector, cursor, elements,
                new RepeatedConverter(elements, new Converter[] {element}, null));
    }

    /** MAP: the {@code key_value} group holds the key and the value of an entry of the entries' struct. */
    static ListConverter ofMap(MapVector vector, Cursor cursor, ByteCount bytes) {
        Cursor entries = new Cursor();
        StructVector entryVector = (StructVector) vector.getDataVector();
        Converter[] keyAndValue = ArrowConverters.of(entryVector.getChildrenFromFields(), entries, bytes);
        return new ListConverter(vector, cursor, entries, new RepeatedConverter(entries, keyAndValue, entryVector));
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return repeated;
    }

    @Override
    public void start() {
        first = vector.startNewValue(cursor.index);
        elements.index = first;
    }

    @Override
    public void end() {
        vector.endValue(cursor.index, elements.index - first);
    }
}
