package dev.parq.sink.column;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.parquet.column.ColumnWriter;

/** Any 32-bit Arrow integer: INT, and DATE as days since the epoch. */
final class Int32Writer extends FixedWidthWriter {

    Int32Writer(BaseFixedWidthVector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getInt(offset(row)), repetitionLevel, definitionLevel);
    }
}
