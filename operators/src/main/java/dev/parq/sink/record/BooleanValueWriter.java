package dev.parq.sink.record;

import org.apache.arrow.vector.BitVector;
import org.apache.parquet.column.ColumnWriter;

final class BooleanValueWriter implements LeafValueWriter {

    private final BitVector vector;

    BooleanValueWriter(BitVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.get(row) != 0, repetitionLevel, definitionLevel);
    }
}
