package dev.parq.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import dev.parq.batch.ArrowSchemas;

class TableSchemaTest {

    @Test
    void parsesColumnListWithNestedTypes() {
        TableSchema schema = TableSchema.parse(
                "id BIGINT, user ROW<id BIGINT, name STRING>, ts TIMESTAMP_LTZ(3), tags ARRAY<STRING>,"
                        + " attrs MAP<STRING, DOUBLE>, price DECIMAL(10, 2), `day` DATE, `local` TIMESTAMP(6)");
        assertEquals(
                java.util.List.of("id", "user", "ts", "tags", "attrs", "price", "day", "local"),
                schema.columnNames());
    }

    @Test
    void ddlRoundTripsThroughTheParser() {
        String ddl = "id BIGINT, `user` ROW<id BIGINT, `name with space` STRING>, ts TIMESTAMP_LTZ(3),"
                + " tags ARRAY<ROW<k STRING, v INT>>, m MAP<STRING, ARRAY<DOUBLE>>, `date` DATE";
        TableSchema schema = TableSchema.parse(ddl);
        assertEquals(schema, TableSchema.parse(schema.toDdl()));
        assertTrue(schema.toDdl().contains("`date` DATE"), schema.toDdl());
        assertTrue(schema.toDdl().startsWith("id BIGINT, user ROW<"), schema.toDdl());
    }

    @Test
    void rejectsUnsupportedAndMalformedSchemas() {
        assertThrows(SchemaException.class, () -> TableSchema.parse(""));
        SchemaException bad = assertThrows(SchemaException.class, () -> TableSchema.parse("id BIGINT,, x"));
        assertTrue(bad.getMessage().contains("cannot parse the schema"), bad.getMessage());
        SchemaException binary = assertThrows(SchemaException.class, () -> TableSchema.parse("b BYTES"));
        assertTrue(binary.getMessage().contains("column 'b'"), binary.getMessage());
        assertThrows(SchemaException.class, () -> TableSchema.parse("m MAP<INT, STRING>"));
        SchemaException keyword = assertThrows(SchemaException.class, () -> TableSchema.parse("day DATE"));
        assertTrue(keyword.getMessage().contains("position 0"), keyword.getMessage());
        assertTrue(keyword.getMessage().contains("back-quotes"), keyword.getMessage());
    }

    @Test
    void mapsToArrow() {
        Schema arrow = ArrowSchemas.toArrow(TableSchema.parse(
                "ts TIMESTAMP_LTZ(3), t TIMESTAMP(6), m MAP<STRING, INT>, a ARRAY<BIGINT>").rowType());
        assertEquals("Timestamp(MILLISECOND, UTC)", arrow.getFields().get(0).getType().toString());
        assertEquals("Timestamp(MICROSECOND, null)", arrow.getFields().get(1).getType().toString());
        assertEquals("Map(false)", arrow.getFields().get(2).getType().toString());
        assertEquals("element", arrow.getFields().get(3).getChildren().get(0).getName());
    }
}
