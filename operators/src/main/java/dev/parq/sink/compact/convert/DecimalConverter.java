package dev.parq.sink.compact.convert;

import org.apache.arrow.vector.DecimalVector;
import org.apache.parquet.io.api.Binary;

/**
 * DECIMAL(p, s): the unscaled value of a Parquet decimal, INT32 up to 9 digits, INT64 up to 18 and
 * a big-endian FIXED_LEN_BYTE_ARRAY above, into a 128-bit decimal vector of the same scale.
 */
final class DecimalConverter extends VectorConverter {

    private final DecimalVector vector;

    DecimalConverter(DecimalVector vector, Cursor cursor, ByteCount bytes) {
        super(cursor, bytes);
        this.vector = vector;
    }

    @Override
    public void addInt(int value) {
        addLong(value);
    }

    @Override
    public void addLong(long value) {
        vector.setSafe(cursor.index, value);
        counted(DecimalVector.TYPE_WIDTH);
    }

    @Override
    public void addBinary(Binary value) {
        vector.setBigEndianSafe(cursor.index, value.getBytesUnsafe());
        counted(DecimalVector.TYPE_WIDTH);
    }
}
