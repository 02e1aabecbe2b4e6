package dev.parq.parse.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.parq.parse.UnknownField;

class UnknownFieldsAccumulatorTest {

    @Test
    void mergingClonesCountsEachSubtaskOnce() {
        UnknownFieldsAccumulator first = new UnknownFieldsAccumulator();
        first.add(Map.of("extra", new UnknownField(3, "b.json", 10)));
        UnknownFieldsAccumulator second = new UnknownFieldsAccumulator();
        second.add(Map.of("extra", new UnknownField(4, "a.json", 99)));

        // As Flink merges: a clone of one subtask's value, then the others into it.
        UnknownFieldsAccumulator merged = first.clone();
        merged.merge(second);
        UnknownFieldsAccumulator mergedAgain = first.clone();
        mergedAgain.merge(second);

        assertEquals(new UnknownField(7, "a.json", 99), merged.getLocalValue().get("extra"));
        assertEquals(new UnknownField(7, "a.json", 99), mergedAgain.getLocalValue().get("extra"));
        assertEquals(new UnknownField(3, "b.json", 10), first.getLocalValue().get("extra"));
    }
}
