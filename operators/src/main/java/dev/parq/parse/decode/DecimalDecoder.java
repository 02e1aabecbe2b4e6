package dev.parq.parse.decode;

import java.math.BigDecimal;

import org.apache.arrow.vector.DecimalVector;

import dev.parq.parse.tape.Tape;

/**
 * DECIMAL(p, s): a JSON number taken exactly. One that needs more than s fractional digits or more
 * than p - s integer digits is rejected, never rounded.
 */
public final class DecimalDecoder implements Decoder {

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
        BigDecimal exact = new BigDecimal(Decimals.ascii(tape.bytes(), tape.start(t), tape.end(t)));
        BigDecimal value;
        if (exact.signum() == 0) {
            value = BigDecimal.ZERO.setScale(scale);
        } else {
            // Stripping first keeps huge exponents (1e999999999) from being expanded.
            BigDecimal stripped = exact.stripTrailingZeros();
            if (stripped.scale() > scale || stripped.precision() - stripped.scale() > precision - scale) {
                throw FieldPath.invalid(path, tape, t, "does not fit " + typeName);
            }
            value = stripped.setScale(scale);
        }
        vector.setSafe(index, value);
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }
}
