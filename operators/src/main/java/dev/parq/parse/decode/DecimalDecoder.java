package dev.parq.parse.decode;

import java.math.BigDecimal;

import org.apache.arrow.vector.DecimalVector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/**
 * DECIMAL(p, s): a JSON number taken exactly. One that needs more than s fractional digits or more
 * than p - s integer digits is rejected, never rounded.
 */
public final class DecimalDecoder extends Decoder {

    private final DecimalVector vector;
    private final int precision;
    private final int scale;
    private final String typeName;
    private final String path;

    public DecimalDecoder(DecimalVector vector, int precision, int scale, String path) {
        this.vector = vector;
        this.precision = precision;
        this.scale = scale;
        this.typeName = "DECIMAL(" + precision + "," + scale + ")";
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.NUMBER) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        BigDecimal value = fit(tape.bytes(), tape.start(t), tape.end(t));
        if (value == null) {
            throw FieldPath.invalid(path, tape, t, "does not fit " + typeName);
        }
        vector.setSafe(index, value);
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        int end = ByteScan.numberEnd(bytes, p, limit);
        BigDecimal value = end < 0 ? null : fit(bytes, p, end);
        if (value == null) {
            return FALLBACK;
        }
        vector.setSafe(index, value);
        return end;
    }

    /** The number bytes[from, to) at the column's scale, or null if it does not fit exactly. */
    private BigDecimal fit(byte[] bytes, int from, int to) {
        BigDecimal exact;
        try {
            exact = new BigDecimal(Decimals.ascii(bytes, from, to));
        } catch (NumberFormatException e) {
            // An exponent beyond an int: zero if every digit is, and otherwise far out of any scale.
            return isZero(bytes, from, to) ? BigDecimal.ZERO.setScale(scale) : null;
        }
        if (exact.signum() == 0) {
            return BigDecimal.ZERO.setScale(scale);
        }
        // Stripping first keeps huge exponents (1e999999999) from being expanded.
        BigDecimal stripped = exact.stripTrailingZeros();
        if (stripped.scale() > scale || stripped.precision() - stripped.scale() > precision - scale) {
            return null;
        }
        return stripped.setScale(scale);
    }

    /** Whether every digit of the number's significand is zero. */
    private static boolean isZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to && bytes[i] != 'e' && bytes[i] != 'E'; i++) {
            if (bytes[i] >= '1' && bytes[i] <= '9') {
                return false;
            }
        }
        return true;
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }
}
