package dev.parq.sink.partition;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.util.ArrowBufPointer;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.ElementAddressableVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The value partition of a row: its column's value as a folder value, numbered within a batch.
 * A row whose value has the bytes of the row before it takes that row's number without decoding
 * it, so that runs of one value (a service's lines) cost a comparison each; a value seen earlier
 * in the batch is found by its bytes where they lie, so that interleaved values are decoded once
 * per batch, not once per row.
 */
final class ValueLevel {

    /** The code of a null or empty value. */
    static final long NULL = -1;

    private final Map<String, Integer> codes = new HashMap<>();
    /** The codes of the batch's values by their bytes in its vector, for vectors that address them. */
    private final Map<ArrowBufPointer, Long> byBytes = new HashMap<>();
    private final List<String> values = new ArrayList<>();
    private final ArrowBufPointer previous = new ArrowBufPointer();
    private final ArrowBufPointer current = new ArrowBufPointer();
    private int previousRow = -1;
    private long previousCode;

    /** Forgets the values numbered: a new batch. */
    void reset() {
        codes.clear();
        values.clear();
        byBytes.clear();
        previousRow = -1;
    }

    long code(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return NULL;
        }
        boolean addressed = vector instanceof ElementAddressableVector;
        if (addressed) {
            ElementAddressableVector addressable = (ElementAddressableVector) vector;
            addressable.getDataPointer(row, current);
            if (previousRow >= 0) {
                addressable.getDataPointer(previousRow, previous);
                if (previous.equals(current)) {
                    previousRow = row;
                    return previousCode;
                }
            }
            Long seen = byBytes.get(current);
            if (seen != null) {
                previousRow = row;
                previousCode = seen;
                return seen;
            }
        }
        String value = format(vector, row);
        long code;
        if (value.isEmpty()) {
            code = NULL;
        } else {
            Integer known = codes.get(value);
            if (known == null) {
                known = values.size();
                codes.put(value, known);
                values.add(value);
            }
            code = known;
        }
        if (addressed) {
            byBytes.put(new ArrowBufPointer(current.getBuf(), current.getOffset(), current.getLength()), code);
        }
        previousRow = row;
        previousCode = code;
        return code;
    }

    /** The folder value of {@code code}; null for {@link #NULL}. */
    String value(long code) {
        return code == NULL ? null : values.get((int) code);
    }

    private static String format(FieldVector vector, int row) {
        if (vector instanceof VarCharVector strings) {
            return new String(strings.get(row), StandardCharsets.UTF_8);
        }
        if (vector instanceof BitVector bits) {
            return bits.get(row) != 0 ? "true" : "false";
        }
        if (vector instanceof DecimalVector decimals) {
            BigDecimal value = decimals.getObject(row);
            return value.toPlainString();
        }
        if (vector instanceof DateDayVector dates) {
            return LocalDate.ofEpochDay(dates.get(row)).toString();
        }
        return vector.getObject(row).toString();
    }
}
