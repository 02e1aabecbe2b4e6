package dev.parq.sink.column;

import org.apache.arrow.vector.Float8Vector;
import org.apache.parquet.io.api.RecordConsumer;

final class DoubleWriter extends FixedWidthWriter {

    DoubleWriter(Float8Vector vector) {
        super(vector);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.addDouble(vector.getDataBuffer().getDouble(offset(row)));
    }
}
