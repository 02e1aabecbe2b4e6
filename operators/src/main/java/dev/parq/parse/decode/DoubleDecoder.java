package dev.parq.parse.decode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.Float8Vector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/** DOUBLE: any JSON number, correctly rounded; one beyond the double range is rejected. */
public final class DoubleDecoder extends Decoder {

    private final Float8Vector vector;
    private final String path;
    private final Decimals decimals = new Decimals();

    public DoubleDecoder(Float8Vector vector, String path) {
        this.vector = vector;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.NUMBER) {
            throw FieldPath.mismatch(path, "DOUBLE", tape, t);
        }
        double value = decimals.toDouble(tape.bytes(), tape.start(t), tape.end(t));
        if (Double.isInfinite(value)) {
            throw FieldPath.invalid(path, tape, t, "is out of range for DOUBLE");
        }
        MemoryUtil.putLong(Slots.fixed(vector, Double.BYTES, index, true), Double.doubleToRawLongBits(value));
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        int end = ByteScan.numberEnd(bytes, p, limit);
        if (end < 0) {
            return FALLBACK;
        }
        double value = decimals.toDouble(bytes, p, end);
        if (Double.isInfinite(value)) {
            return FALLBACK;
        }
        MemoryUtil.putLong(Slots.fixed(vector, Double.BYTES, index, true), Double.doubleToRawLongBits(value));
        return end;
    }

    @Override
    public void writeNull(int index) {
        Slots.fixed(vector, Double.BYTES, index, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        Slots.fixedNulls(vector, Double.BYTES, from, to);
    }
}
