package dev.parq.sink.column;

import org.apache.arrow.vector.Float4Vector;
import org.apache.parquet.column.ColumnWriter;

final class FloatWriter extends FixedWidthWriter {

    FloatWriter(Float4Vector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getFloat(offset(row)), repetitionLevel, definitionLevel);
    }
}
