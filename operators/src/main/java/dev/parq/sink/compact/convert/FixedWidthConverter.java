package dev.parq.sink.compact.convert;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;

/**
 * The numbers of a leaf column straight into the data buffer of a fixed-width vector, at the
 * vector's width: a Parquet INT32 into TINYINT, SMALLINT, INTEGER and DATE vectors (the INT(8),
 * INT(16), INT(32) and DATE annotations say the width), INT64 into BIGINT and timestamp vectors
 * (the sink writes a timestamp in the unit of its vector), FLOAT and DOUBLE into theirs.
 */
final class FixedWidthConverter extends VectorConverter {

    private final BaseFixedWidthVector vector;
    private final int width;

    FixedWidthConverter(BaseFixedWidthVector vector, Cursor cursor, ByteCount bytes) {
        super(cursor, bytes);
        this.vector = vector;
        this.width = vector.getTypeWidth();
    }

    @Override
    public void addInt(int value) {
        ArrowBuf data = slot();
        long offset = (long) cursor.index * width;
        if (width == Byte.BYTES) {
            data.setByte(offset, value);
        } else if (width == Short.BYTES) {
            data.setShort(offset, (short) value);
        } else {
            data.setInt(offset, value);
        }
    }

    @Override
    public void addLong(long value) {
        slot().setLong((long) cursor.index * width, value);
    }

    @Override
    public void addFloat(float value) {
        slot().setFloat((long) cursor.index * width, value);
    }

    @Override
    public void addDouble(double value) {
        slot().setDouble((long) cursor.index * width, value);
    }

    /** Makes room for the cursor's slot and marks it set; the data buffer to write its value into. */
    private ArrowBuf slot() {
        while (cursor.index >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        BitVectorHelper.setBit(vector.getValidityBuffer(), cursor.index);
        counted(width);
        return vector.getDataBuffer();
    }
}
