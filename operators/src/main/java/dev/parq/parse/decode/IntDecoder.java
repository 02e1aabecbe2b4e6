package dev.parq.parse.decode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/**
 * TINYINT, SMALLINT, INT and BIGINT: a JSON integer literal within the type's range. A fraction or
 * an exponent is rejected even when the value is whole (1.0, 1e3).
 */
public final class IntDecoder extends Decoder {

    private static final int MAX_SAFE_DIGITS = 18;

    private final BaseFixedWidthVector vector;
    private final int width;
    private final long min;
    private final long max;
    private final String typeName;
    private final String path;

    public IntDecoder(BaseFixedWidthVector vector, int bits, String typeName, String path) {
        this.vector = vector;
        this.width = bits / 8;
        this.min = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
        this.max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        this.typeName = typeName;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.NUMBER) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        if (tape.has(t, Tape.NOT_INTEGER)) {
            throw FieldPath.invalid(path, tape, t, "is not an integer");
        }
        long value = parse(tape.bytes(), tape.start(t), tape.end(t), tape, t);
        if (value < min || value > max) {
            throw outOfRange(tape, t);
        }
        write(index, value);
    }

    /**
     * Takes integers of up to 18 digits, which cannot overflow a long; a longer one, like anything
     * out of the type's range, is left to the tape path and its message.
     */
    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        boolean negative = bytes[p] == '-';
        int from = negative ? p + 1 : p;
        if (from >= limit || !ByteScan.digit(bytes[from])) {
            return FALLBACK;
        }
        int end = bytes[from] == '0' ? from + 1 : ByteScan.digitsEnd(bytes, from + 1, limit);
        if (end - from > MAX_SAFE_DIGITS) {
            return FALLBACK;
        }
        if (end < limit) {
            byte next = bytes[end];
            if (next == '.' || next == 'e' || next == 'E' || ByteScan.digit(next)) {
                return FALLBACK;
            }
        }
        long value = 0;
        for (int i = from; i < end; i++) {
            value = value * 10 + (bytes[i] - '0');
        }
        if (negative) {
            value = -value;
        }
        if (value < min || value > max) {
            return FALLBACK;
        }
        write(index, value);
        return end;
    }

    private void write(int index, long value) {
        long address = Slots.fixed(vector, width, index, true);
        switch (width) {
            case 1:
                MemoryUtil.putByte(address, (byte) value);
                break;
            case 2:
                MemoryUtil.putShort(address, (short) value);
                break;
            case 4:
                MemoryUtil.putInt(address, (int) value);
                break;
            default:
                MemoryUtil.putLong(address, value);
        }
    }

    /** Accumulates negatively so that Long.MIN_VALUE parses too. */
    private long parse(byte[] buf, int from, int to, Tape tape, int t) {
        boolean negative = buf[from] == '-';
        int p = negative ? from + 1 : from;
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multiplyLimit = limit / 10;
        long acc = 0;
        for (; p < to; p++) {
            int digit = buf[p] - '0';
            if (acc < multiplyLimit) {
                throw outOfRange(tape, t);
            }
            acc *= 10;
            if (acc < limit + digit) {
                throw outOfRange(tape, t);
            }
            acc -= digit;
        }
        return negative ? acc : -acc;
    }

    private DecodeException outOfRange(Tape tape, int t) {
        return FieldPath.invalid(path, tape, t, "is out of range for " + typeName);
    }

    @Override
    public void writeNull(int index) {
        Slots.fixed(vector, width, index, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        Slots.fixedNulls(vector, width, from, to);
    }
}
