package dev.parq.parse.decode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

import dev.parq.json.ByteScan;
import dev.parq.json.IsoDateTime;
import dev.parq.json.Tape;

/**
 * TIMESTAMP(p) and TIMESTAMP_LTZ(p): an ISO-8601 date-time string. TIMESTAMP takes a local
 * date-time and rejects a zone; TIMESTAMP_LTZ needs 'Z' or an offset and stores the UTC instant.
 * Fractional digits beyond the column's precision are truncated, as Flink SQL's cast does:
 * a TIMESTAMP(p) column holds no more than p of them.
 */
public final class TimestampDecoder extends Decoder {

    private final TimeStampVector vector;
    private final TimeUnit unit;
    /** Nanoseconds per unit of the column's last fractional digit: 10^(9 - precision). */
    private final int nanosStep;
    private final boolean instant;
    private final String typeName;
    private final String path;
    private final IsoDateTime iso = new IsoDateTime();

    public TimestampDecoder(TimeStampVector vector, TimeUnit unit, int precision, boolean instant, String typeName,
            String path) {
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("timestamp precision out of range: " + precision);
        }
        this.vector = vector;
        this.unit = unit;
        int step = 1;
        for (int i = precision; i < 9; i++) {
            step *= 10;
        }
        this.nanosStep = step;
        this.instant = instant;
        this.typeName = typeName;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.STRING) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        if (!parse(tape.bytes(), tape.start(t), tape.end(t), tape.has(t, Tape.ESCAPED))) {
            throw FieldPath.invalid(path, tape, t, "is not an ISO-8601 date-time");
        }
        if (instant && !iso.hasZone) {
            throw FieldPath.invalid(path, tape, t, "has no time zone; " + typeName + " needs 'Z' or an offset like +02:00");
        }
        if (!instant && iso.hasZone) {
            throw FieldPath.invalid(path, tape, t, "has a time zone; " + typeName + " takes local date-times (use TIMESTAMP_LTZ for instants)");
        }
        long value;
        try {
            value = value();
        } catch (ArithmeticException e) {
            throw FieldPath.invalid(path, tape, t, "is out of range for " + typeName);
        }
        MemoryUtil.putLong(Slots.fixed(vector, Long.BYTES, index, true), value);
    }

    /** Takes strings without escapes; any other value or problem is left to the tape path. */
    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '"') {
            return FALLBACK;
        }
        int end = ByteScan.plainEnd(bytes, p + 1, limit);
        if (end >= limit || bytes[end] != '"' || !parse(bytes, p + 1, end, false) || iso.hasZone != instant) {
            return FALLBACK;
        }
        long value;
        try {
            value = value();
        } catch (ArithmeticException e) {
            return FALLBACK;
        }
        MemoryUtil.putLong(Slots.fixed(vector, Long.BYTES, index, true), value);
        return end + 1;
    }

    /** Reads string content bytes[from, to) into {@link #iso}, the common log shape first. */
    private boolean parse(byte[] bytes, int from, int to, boolean escaped) {
        return iso.parseText(bytes, from, to, escaped);
    }

    /**
     * The parsed date-time in the vector's unit, its fraction cut to the column's precision;
     * ArithmeticException beyond a long. Before 1970 the fraction is taken from the next second
     * down, so that an instant just inside the range of a long (1677-09-21T00:12:43.145224192Z
     * in nanoseconds) does not overflow on its way there.
     */
    private long value() {
        long seconds = iso.epochDay * 86_400L + iso.secondOfDay - iso.offsetSeconds;
        long nanos = iso.nanos - iso.nanos % nanosStep;
        if (seconds < 0 && nanos > 0) {
            seconds++;
            nanos -= 1_000_000_000L;
        }
        switch (unit) {
            case SECOND:
                return seconds;
            case MILLISECOND:
                return Math.addExact(Math.multiplyExact(seconds, 1_000L), Math.floorDiv(nanos, 1_000_000L));
            case MICROSECOND:
                return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), Math.floorDiv(nanos, 1_000L));
            default:
                return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
        }
    }

    @Override
    public void writeNull(int index) {
        Slots.fixed(vector, Long.BYTES, index, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        Slots.fixedNulls(vector, Long.BYTES, from, to);
    }
}
