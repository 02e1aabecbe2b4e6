package dev.parq.sink.compact.convert;

import org.apache.arrow.vector.BitVector;

/** BOOLEAN: a Parquet BOOLEAN into a bit vector. */
final class BooleanConverter extends VectorConverter {

    private final BitVector vector;

    BooleanConverter(BitVector vector, Cursor cursor, ByteCount bytes) {
        super(cursor, bytes);
        this.vector = vector;
    }

    @Override
    public void addBoolean(boolean value) {
        vector.setSafe(cursor.index, value ? 1 : 0);
        counted(1);
    }
}
