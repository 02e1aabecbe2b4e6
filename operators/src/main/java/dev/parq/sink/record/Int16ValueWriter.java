package dev.parq.sink.record;

import org.apache.arrow.vector.SmallIntVector;
import org.apache.parquet.column.ColumnWriter;

/** SMALLINT: Parquet INT32 annotated INT(16, signed). */
final class Int16ValueWriter extends FixedWidthValueWriter {

    Int16ValueWriter(SmallIntVector vector) {
        super(vector);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write((int) vector.getDataBuffer().getShort(offset(row)), repetitionLevel, definitionLevel);
    }
}
