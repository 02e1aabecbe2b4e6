package dev.parq.schema.infer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import dev.parq.json.IsoDateTime;
import dev.parq.json.JsonStrings;
import dev.parq.json.Tape;

/**
 * What the sampled values of one field have in common, widened as values arrive: integers and
 * floats meet in DOUBLE; objects merge field by field; anything else that disagrees is STRING.
 */
public final class InferredType {

    enum Kind { NULL, BOOLEAN, INTEGER, DOUBLE, STRING, OBJECT, ARRAY, MIXED }

    private Kind kind = Kind.NULL;
    /** Whether every sampled string was a date-time with a zone, or every one without. */
    private boolean allInstants = true;
    private boolean allLocal = true;
    /** The most fractional digits among the date-times, and whether all fit nanoseconds in a long. */
    private int fractionDigits;
    private boolean fitNanos = true;
    private Map<String, InferredType> fields;
    private InferredType element;

    /** Observes the value at token {@code t} of a validated line. */
    public void observe(Tape tape, int t) {
        switch (tape.kind(t)) {
            case Tape.NULL:
                return;
            case Tape.TRUE:
            case Tape.FALSE:
                become(Kind.BOOLEAN);
                return;
            case Tape.NUMBER:
                // An integer beyond BIGINT is kept as a DOUBLE rather than rejected.
                become(tape.has(t, Tape.NOT_INTEGER) || !fitsLong(tape, t) ? Kind.DOUBLE : Kind.INTEGER);
                return;
            case Tape.STRING:
                if (become(Kind.STRING) && (allInstants || allLocal)) {
                    int shape = IsoDateTime.shape(tape, t);
                    allInstants &= shape >= 0 && (shape & IsoDateTime.ZONED) != 0;
                    allLocal &= shape >= 0 && (shape & IsoDateTime.ZONED) == 0;
                    if (shape >= 0) {
                        fractionDigits = Math.max(fractionDigits, shape & 0xF);
                        fitNanos &= (shape & IsoDateTime.FITS_NANOS) != 0;
                    }
                }
                return;
            case Tape.OBJECT:
                if (become(Kind.OBJECT)) {
                    // Members are a key token followed by the value's tokens.
                    for (int k = t + 1, end = tape.next(t); k < end; k = tape.next(k + 1)) {
                        fields.computeIfAbsent(JsonStrings.text(tape, k), n -> new InferredType()).observe(tape, k + 1);
                    }
                }
                return;
            case Tape.ARRAY:
                if (become(Kind.ARRAY)) {
                    for (int e = t + 1, end = tape.next(t); e < end; e = tape.next(e)) {
                        if (element == null) {
                            element = new InferredType();
                        }
                        element.observe(tape, e);
                    }
                }
                return;
            default:
                throw new IllegalStateException("unexpected token kind " + tape.kind(t));
        }
    }

    private static boolean fitsLong(Tape tape, int t) {
        int digits = tape.end(t) - tape.start(t);
        if (digits <= 18) {
            return true;
        }
        try {
            Long.parseLong(new String(tape.bytes(), tape.start(t), digits, StandardCharsets.US_ASCII));
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Widens this type to also hold everything {@code other} holds. */
    public void merge(InferredType other) {
        if (other.kind == Kind.NULL || !become(other.kind)) {
            return;
        }
        switch (kind) {
            case STRING:
                allInstants &= other.allInstants;
                allLocal &= other.allLocal;
                fractionDigits = Math.max(fractionDigits, other.fractionDigits);
                fitNanos &= other.fitNanos;
                return;
            case OBJECT:
                other.fields.forEach((name, type) -> fields.computeIfAbsent(name, n -> new InferredType()).merge(type));
                return;
            case ARRAY:
                if (other.element != null) {
                    if (element == null) {
                        element = new InferredType();
                    }
                    element.merge(other.element);
                }
                return;
            default:
        }
    }

    /** Moves to the kind that holds both; false if that is MIXED (nothing more to learn). */
    private boolean become(Kind next) {
        if (kind == next) {
            return kind != Kind.MIXED;
        }
        if (kind == Kind.NULL) {
            kind = next;
            if (next == Kind.OBJECT) {
                fields = new LinkedHashMap<>();
            }
            return next != Kind.MIXED;
        }
        if ((kind == Kind.INTEGER && next == Kind.DOUBLE) || (kind == Kind.DOUBLE && next == Kind.INTEGER)) {
            kind = Kind.DOUBLE;
            return true;
        }
        kind = Kind.MIXED;
        fields = null;
        element = null;
        return false;
    }

    public boolean isObjectWithFields() {
        return kind == Kind.OBJECT && !fields.isEmpty();
    }

    /** The fields of an object type, as a ROW; null if it has none that can be columns. */
    public RowType toRowType() {
        List<RowType.RowField> rowFields = new ArrayList<>();
        fields.forEach((name, type) -> {
            if (!name.isBlank()) {
                rowFields.add(new RowType.RowField(name, type.toLogicalType()));
            }
        });
        return rowFields.isEmpty() ? null : new RowType(rowFields);
    }

    LogicalType toLogicalType() {
        switch (kind) {
            case BOOLEAN:
                return new BooleanType();
            case INTEGER:
                return new BigIntType();
            case DOUBLE:
                return new DoubleType();
            case STRING:
                if (allInstants) {
                    return new LocalZonedTimestampType(precision());
                }
                return allLocal ? new TimestampType(precision()) : string();
            case OBJECT: {
                RowType row = toRowType();
                return row == null ? string() : row;
            }
            case ARRAY:
                return new ArrayType(element == null ? string() : element.toLogicalType());
            default:
                return string();
        }
    }

    /**
     * The precision that keeps every sampled digit: 3, 6 or 9 (a Parquet unit's), or 6 where a
     * value lies beyond what nanoseconds in a long reach (1677 to 2262).
     */
    private int precision() {
        int precision = fractionDigits <= 3 ? 3 : fractionDigits <= 6 ? 6 : 9;
        return precision == 9 && !fitNanos ? 6 : precision;
    }

    private static LogicalType string() {
        return new VarCharType(VarCharType.MAX_LENGTH);
    }
}
