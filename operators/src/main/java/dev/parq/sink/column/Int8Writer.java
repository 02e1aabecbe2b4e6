package dev.parq.sink.column;

import org.apache.arrow.vector.TinyIntVector;
import org.apache.parquet.io.api.RecordConsumer;

/** TINYINT: Parquet INT32 annotated INT(8, signed). */
final class Int8Writer extends FixedWidthWriter {

    Int8Writer(TinyIntVector vector) {
        super(vector);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.addInteger(vector.getDataBuffer().getByte(offset(row)));
    }
}
