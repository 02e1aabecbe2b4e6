package dev.parq.sink.record;

import org.apache.arrow.vector.Float8Vector;
import org.apache.parquet.column.ColumnWriter;

final class DoubleValueWriter extends FixedWidthValueWriter {

    DoubleValueWriter(Float8Vector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getDouble(offset(row)), repetitionLevel, definitionLevel);
    }
}
