package dev.parq.sink.column;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.RecordConsumer;

/** ROW: a Parquet group holding the child fields. */
final class StructWriter implements ArrowColumnWriter {

    private final StructVector vector;
    private final FieldsWriter fields;

    StructWriter(StructVector vector, FieldsWriter fields) {
        this.vector = vector;
        this.fields = fields;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.startGroup();
        fields.write(out, row);
        out.endGroup();
    }
}
