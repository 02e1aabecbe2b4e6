package dev.parq.sink.compact.convert;

import java.nio.ByteBuffer;

import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;

/**
 * STRING: the UTF-8 bytes of a Parquet BINARY annotated STRING into a variable-width vector, as they
 * are. A dictionary-encoded chunk's values are taken from its dictionary, decoded once.
 */
final class StringConverter extends VectorConverter {

    private final VarCharVector vector;
    private byte[][] dictionary;

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

    @Override
    public boolean hasDictionarySupport() {
        return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
        this.dictionary = new byte[dictionary.getMaxId() + 1][];
        for (int id = 0; id < this.dictionary.length; id++) {
            this.dictionary[id] = dictionary.decodeToBinary(id).getBytes();
        }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
        byte[] value = dictionary[dictionaryId];
        vector.setSafe(cursor.index, value, 0, value.length);
        counted(value.length + Integer.BYTES);
    }
}
