package dev.parq.sink.compact.convert;

import java.nio.ByteBuffer;

import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.io.api.Binary;

/** STRING: the UTF-8 bytes of a Parquet BINARY annotated STRING into a variable-width vector, as they are. */
final class StringConverter extends VectorConverter {

    private final VarCharVector vector;

    StringConverter(VarCharVector vector, Cursor cursor, ByteCount bytes) {
        super(cursor, bytes);
        this.vector = vector;
    }

    @Override
    public void addBinary(Binary value) {
        ByteBuffer bytes = value.toByteBuffer();
        vector.setSafe(cursor.index, bytes, bytes.position(), bytes.remaining());
        counted(bytes.remaining() + Integer.BYTES);
    }
}
