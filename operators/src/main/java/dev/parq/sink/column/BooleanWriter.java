package dev.parq.sink.column;

import org.apache.arrow.vector.BitVector;
import org.apache.parquet.column.ColumnWriter;

final class BooleanWriter implements ArrowColumnWriter {

    private final BitVector vector;

    BooleanWriter(BitVector vector) {
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
