package dev.parq.sink.record;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/** STRING: the UTF-8 bytes, copied through one scratch array instead of an array per value. */
final class StringValueWriter implements LeafValueWriter {

    private final VarCharVector vector;
    private byte[] scratch = new byte[256];

    StringValueWriter(VarCharVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
        column.write(value(row), repetitionLevel, definitionLevel);
    }

    /** Parquet copies a reused array wherever it keeps a value (dictionary, statistics). */
    private Binary value(int row) {
        long offsetAt = (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
        int start = vector.getOffsetBuffer().getInt(offsetAt);
        int length = vector.getOffsetBuffer().getInt(offsetAt + BaseVariableWidthVector.OFFSET_WIDTH) - start;
        if (length > scratch.length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        vector.getDataBuffer().getBytes(start, scratch, 0, length);
        return Binary.fromReusedByteArray(scratch, 0, length);
    }
}
