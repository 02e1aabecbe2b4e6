package dev.parq.parse.decode;

import org.apache.arrow.vector.BitVector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/** BOOLEAN: JSON true or false, nothing else. */
public final class BooleanDecoder extends Decoder {

    private final BitVector vector;
    private final String path;

    public BooleanDecoder(BitVector vector, String path) {
        this.vector = vector;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        int kind = tape.kind(t);
        if (kind == Tape.TRUE) {
            vector.setSafe(index, 1);
        } else if (kind == Tape.FALSE) {
            vector.setSafe(index, 0);
        } else {
            throw FieldPath.mismatch(path, "BOOLEAN", tape, t);
        }
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        boolean value = bytes[p] == 't';
        int end = value || bytes[p] == 'f' ? ByteScan.literalEnd(bytes, p, limit) : FALLBACK;
        if (end >= 0) {
            vector.setSafe(index, value ? 1 : 0);
        }
        return end;
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }
}
