package dev.parq.sink.column;

import org.apache.arrow.vector.Float8Vector;
import org.apache.parquet.column.ColumnWriter;

final class DoubleWriter extends FixedWidthWriter {

    DoubleWriter(Float8Vector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getDouble(offset(row)), repetitionLevel, definitionLevel);
    }
}
