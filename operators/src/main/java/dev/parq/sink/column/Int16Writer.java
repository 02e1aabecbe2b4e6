package dev.parq.sink.column;

import org.apache.arrow.vector.SmallIntVector;
import org.apache.parquet.io.api.RecordConsumer;

/** SMALLINT: Parquet INT32 annotated INT(16, signed). */
final class Int16Writer extends FixedWidthWriter {

    Int16Writer(SmallIntVector vector) {
        super(vector);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.addInteger(vector.getDataBuffer().getShort(offset(row)));
    }
}
