package dev.parq.sink.column;

import org.apache.arrow.vector.BitVector;
import org.apache.parquet.io.api.RecordConsumer;

final class BooleanWriter implements ArrowColumnWriter {

    private final BitVector vector;

    BooleanWriter(BitVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        out.addBoolean(vector.get(row) != 0);
    }
}
