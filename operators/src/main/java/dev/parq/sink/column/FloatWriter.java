package dev.parq.sink.column;

import org.apache.arrow.vector.Float4Vector;
import org.apache.parquet.io.api.RecordConsumer;

final class FloatWriter extends FixedWidthWriter {

    FloatWriter(Float4Vector vector) {
        super(vector);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.addFloat(vector.getDataBuffer().getFloat(offset(row)));
    }
}
