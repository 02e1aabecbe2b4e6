package dev.parq.sink.compact;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Sets Java values into the vectors of a batch laid out by {@link dev.parq.batch.ArrowSchemas}:
 * null leaves the slot null; a {@code Map} is a ROW (by field name) or a MAP (in its order), a
 * {@code List} an ARRAY; numbers, {@code BigDecimal}, {@code String}, days and epoch counts as the
 * vector takes them.
 */
final class ArrowValues {

    private ArrowValues() {}

    /** Refills {@code root} with {@code rows}, each a value per column. */
    static void fill(VectorSchemaRoot root, List<List<Object>> rows) {
        root.getFieldVectors().forEach(FieldVector::reset);
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < root.getFieldVectors().size(); c++) {
                set(root.getVector(c), r, rows.get(r).get(c));
            }
        }
        root.setRowCount(rows.size());
    }

    @SuppressWarnings("unchecked")
    static void set(FieldVector vector, int index, Object value) {
        if (value == null) {
            return;
        }
        if (vector instanceof BitVector bits) {
            bits.setSafe(index, (Boolean) value ? 1 : 0);
        } else if (vector instanceof DateDayVector days) {
            days.setSafe(index, (Integer) value);
        } else if (vector instanceof TimeStampVector instants) {
            instants.setSafe(index, (Long) value);
        } else if (vector instanceof BaseIntVector ints) {
            ints.setWithPossibleTruncate(index, ((Number) value).longValue());
        } else if (vector instanceof Float4Vector floats) {
            floats.setSafe(index, (Float) value);
        } else if (vector instanceof Float8Vector doubles) {
            doubles.setSafe(index, (Double) value);
        } else if (vector instanceof DecimalVector decimals) {
            decimals.setSafe(index, (BigDecimal) value);
        } else if (vector instanceof VarCharVector strings) {
            strings.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof StructVector struct) {
            struct.setIndexDefined(index);
            ((Map<String, Object>) value).forEach((name, field) -> set(struct.getChild(name), index, field));
        } else if (vector instanceof MapVector map) {
            StructVector entries = (StructVector) map.getDataVector();
            int start = map.startNewValue(index);
            int i = start;
            for (Map.Entry<String, Object> entry : ((Map<String, Object>) value).entrySet()) {
                entries.setIndexDefined(i);
                set(entries.getChild(MapVector.KEY_NAME), i, entry.getKey());
                set(entries.getChild(MapVector.VALUE_NAME), i, entry.getValue());
                i++;
            }
            map.endValue(index, i - start);
        } else if (vector instanceof ListVector list) {
            int start = list.startNewValue(index);
            List<Object> elements = (List<Object>) value;
            for (int i = 0; i < elements.size(); i++) {
                set((FieldVector) list.getDataVector(), start + i, elements.get(i));
            }
            list.endValue(index, elements.size());
        } else {
            throw new IllegalArgumentException("no setter for " + vector.getField());
        }
    }
}
