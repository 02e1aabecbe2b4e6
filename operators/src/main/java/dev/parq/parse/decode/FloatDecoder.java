package dev.parq.parse.decode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.Float4Vector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/** FLOAT: any JSON number, correctly rounded to single precision; beyond its range is rejected. */
public final class FloatDecoder extends Decoder {

    private final Float4Vector vector;
    private final String path;
    private final Decimals decimals = new Decimals();

    public FloatDecoder(Float4Vector vector, String path) {
        this.vector = vector;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.NUMBER) {
            throw FieldPath.mismatch(path, "FLOAT", tape, t);
        }
        float value = decimals.toFloat(tape.bytes(), tape.start(t), tape.end(t));
        if (Float.isInfinite(value)) {
            throw FieldPath.invalid(path, tape, t, "is out of range for FLOAT");
        }
        MemoryUtil.putInt(Slots.fixed(vector, Float.BYTES, index, true), Float.floatToRawIntBits(value));
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        int end = ByteScan.numberEnd(bytes, p, limit);
        if (end < 0) {
            return FALLBACK;
        }
        float value = decimals.toFloat(bytes, p, end);
        if (Float.isInfinite(value)) {
            return FALLBACK;
        }
        MemoryUtil.putInt(Slots.fixed(vector, Float.BYTES, index, true), Float.floatToRawIntBits(value));
        return end;
    }

    @Override
    public void writeNull(int index) {
        Slots.fixed(vector, Float.BYTES, index, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        Slots.fixedNulls(vector, Float.BYTES, from, to);
    }
}
