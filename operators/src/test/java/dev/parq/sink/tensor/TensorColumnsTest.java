package dev.parq.sink.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.parq.schema.SchemaException;
import dev.parq.schema.TableSchema;

class TensorColumnsTest {

    @Test
    void nestedPathsBecomeRowsWithDoubleLeavesInFirstSeenOrder() {
        TensorColumns columns = TensorColumns.parse("latency, user.id, `x`, user.geo.lat, user.score");
        assertEquals(List.of("latency", "user.id", "`x`", "user.geo.lat", "user.score"), columns.names());
        TableSchema schema = columns.schema();
        assertEquals(TableSchema.parse("latency DOUBLE, `user` ROW<id DOUBLE, geo ROW<lat DOUBLE>, score DOUBLE>,"
                + " ```x``` DOUBLE"), schema);
        assertEquals(schema, TableSchema.parse(schema.toDdl()));
    }

    @Test
    void refusesEmptyDuplicateAndOverlappingColumns() {
        assertTrue(assertThrows(SchemaException.class, () -> TensorColumns.parse("a,,b")).getMessage()
                .contains("column ''"));
        assertTrue(assertThrows(SchemaException.class, () -> TensorColumns.parse("a.")).getMessage()
                .contains("'a.'"));
        assertTrue(assertThrows(SchemaException.class, () -> TensorColumns.parse("a, b, a")).getMessage()
                .contains("'a' is given twice"));
        assertTrue(assertThrows(SchemaException.class, () -> TensorColumns.parse("user.id, user")).getMessage()
                .contains("overlap"));
    }
}
