package dev.parq.sink.record;

import org.apache.arrow.vector.Float4Vector;
import org.apache.parquet.column.ColumnWriter;

final class FloatValueWriter extends FixedWidthValueWriter {

    FloatValueWriter(Float4Vector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(vector.getDataBuffer().getFloat(offset(row)), repetitionLevel, definitionLevel);
    }
}
