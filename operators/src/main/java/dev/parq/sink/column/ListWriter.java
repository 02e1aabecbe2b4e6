package dev.parq.sink.column;

import dev.parq.sink.ParquetSchemas;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * ARRAY in the standard three-level layout: the LIST group repeats a {@code list} group per
 * element, whose optional {@code element} field is absent for a null element. An empty list is
 * the group with no {@code list} field.
 */
final class ListWriter implements ArrowColumnWriter {

    private final ListVector vector;
    private final ArrowColumnWriter element;

    ListWriter(ListVector vector, ArrowColumnWriter element) {
        this.vector = vector;
        this.element = element;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        int start = vector.getElementStartIndex(row);
        int end = vector.getElementEndIndex(row);
        out.startGroup();
        if (end > start) {
            out.startField(ParquetSchemas.LIST_REPEATED, 0);
            for (int i = start; i < end; i++) {
                out.startGroup();
                if (!element.isNull(i)) {
                    out.startField(ParquetSchemas.LIST_ELEMENT, 0);
                    element.write(out, i);
                    out.endField(ParquetSchemas.LIST_ELEMENT, 0);
                }
                out.endGroup();
            }
            out.endField(ParquetSchemas.LIST_REPEATED, 0);
        }
        out.endGroup();
    }
}
