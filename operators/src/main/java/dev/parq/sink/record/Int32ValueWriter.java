package dev.parq.sink.record;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.parquet.column.ColumnWriter;

/** Any 32-bit Arrow integer: INT, and DATE as days since the epoch. */
final class Int32ValueWriter extends FixedWidthValueWriter {

    Int32ValueWriter(BaseFixedWidthVector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getInt(offset(row)), repetitionLevel, definitionLevel);
    }
}
