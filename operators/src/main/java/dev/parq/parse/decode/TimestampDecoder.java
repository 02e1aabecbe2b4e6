package dev.parq.parse.decode;

import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

import dev.parq.parse.tape.Tape;

/**
 * TIMESTAMP(p) and TIMESTAMP_LTZ(p): an ISO-8601 date-time string. TIMESTAMP takes a local
 * date-time and rejects a zone; TIMESTAMP_LTZ needs 'Z' or an offset and stores the UTC instant.
 * Digits beyond the vector's unit are truncated.
 */
public final class TimestampDecoder implements Decoder {

    private final TimeStampVector vector;
    private final TimeUnit unit;
    private final boolean instant;
    private final String typeName;
    private final String path;
    private final IsoDateTime iso = new IsoDateTime();

    public TimestampDecoder(TimeStampVector vector, TimeUnit unit, boolean instant, String typeName, String path) {
        this.vector = vector;
        this.unit = unit;
        this.instant = instant;
        this.typeName = typeName;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.STRING) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        boolean common = !tape.has(t, Tape.ESCAPED) && iso.parseUtcMillis(tape.bytes(), tape.start(t), tape.end(t));
        if (!common && (!iso.load(tape, t) || !iso.parseDateTime())) {
            throw FieldPath.invalid(path, tape, t, "is not an ISO-8601 date-time");
        }
        if (instant && !iso.hasZone) {
            throw FieldPath.invalid(path, tape, t, "has no time zone; " + typeName + " needs 'Z' or an offset like +02:00");
        }
        if (!instant && iso.hasZone) {
            throw FieldPath.invalid(path, tape, t, "has a time zone; " + typeName + " takes local date-times (use TIMESTAMP_LTZ for instants)");
        }
        long seconds = iso.epochDay * 86_400L + iso.secondOfDay - iso.offsetSeconds;
        long value;
        try {
            switch (unit) {
                case MILLISECOND:
                    value = Math.addExact(Math.multiplyExact(seconds, 1_000L), iso.nanos / 1_000_000);
                    break;
                case MICROSECOND:
                    value = Math.addExact(Math.multiplyExact(seconds, 1_000_000L), iso.nanos / 1_000);
                    break;
                default:
                    value = Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), iso.nanos);
            }
        } catch (ArithmeticException e) {
            throw FieldPath.invalid(path, tape, t, "is out of range for " + typeName);
        }
        vector.setSafe(index, value);
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }
}
