package dev.parq.sink.record;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.parquet.column.ColumnWriter;

/**
 * Any 64-bit Arrow integer: BIGINT, and timestamps, whose Arrow unit is the unit of their Parquet
 * type so the value is copied unchanged.
 */
final class Int64ValueWriter extends FixedWidthValueWriter {

    Int64ValueWriter(BaseFixedWidthVector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getLong(offset(row)), repetitionLevel, definitionLevel);
    }
}
