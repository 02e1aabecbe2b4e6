package dev.parq.parse.operator;

import java.util.HashMap;
import java.util.Map;

import org.apache.flink.api.common.accumulators.Accumulator;

import dev.parq.parse.UnknownField;

/** Merges, across parallel parsers, the keys that were found in the input but not in the schema. */
public final class UnknownFieldsAccumulator implements Accumulator<Map<String, UnknownField>, HashMap<String, UnknownField>> {
    private static final long serialVersionUID = 1L;

    private HashMap<String, UnknownField> fields = new HashMap<>();

    @Override
    public void add(Map<String, UnknownField> found) {
        // Copies: UnknownField.merge updates the instance kept in the map.
        found.forEach((path, field) -> fields.merge(
                path, new UnknownField(field.count(), field.firstFile(), field.firstOffset()), UnknownField::merge));
    }

    @Override
    public HashMap<String, UnknownField> getLocalValue() {
        return fields;
    }

    @Override
    public void resetLocal() {
        fields = new HashMap<>();
    }

    @Override
    public void merge(Accumulator<Map<String, UnknownField>, HashMap<String, UnknownField>> other) {
        add(other.getLocalValue());
    }

    @Override
    public UnknownFieldsAccumulator clone() {
        UnknownFieldsAccumulator copy = new UnknownFieldsAccumulator();
        copy.add(fields);
        return copy;
    }
}
