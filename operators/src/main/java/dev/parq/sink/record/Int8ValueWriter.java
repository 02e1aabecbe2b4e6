package dev.parq.sink.record;

import org.apache.arrow.vector.TinyIntVector;
import org.apache.parquet.column.ColumnWriter;

/** TINYINT: Parquet INT32 annotated INT(8, signed). */
final class Int8ValueWriter extends FixedWidthValueWriter {

    Int8ValueWriter(TinyIntVector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write((int) vector.getDataBuffer().getByte(offset(row)), repetitionLevel, definitionLevel);
    }
}
