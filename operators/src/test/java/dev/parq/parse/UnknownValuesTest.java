package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.impl.UnionMapReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.parq.schema.SchemaException;

/** The keys not in the schema, kept with their values' text by {@link UnknownFieldsMode#KEEP}. */
class UnknownValuesTest {

    private static final String SCHEMA = "id BIGINT, r ROW<a BIGINT, s ROW<b STRING>>, tags ARRAY<ROW<k BIGINT>>";

    private static ParserHarness keeping(boolean inline) {
        return new ParserHarness(SCHEMA, UnknownFieldsMode.KEEP, 1024, inline, LineLimit.defaultBytes());
    }

    /** Row {@code row}'s entries of the unknown keys' column, in their order. */
    private static Map<String, String> unknown(ParserHarness h, int row) {
        MapVector column = (MapVector) h.column(UnknownFieldsMode.COLUMN);
        Map<String, String> entries = new LinkedHashMap<>();
        UnionMapReader reader = column.getReader();
        reader.setPosition(row);
        while (reader.next()) {
            String path = reader.key().readText().toString();
            assertEquals(null, entries.put(path, reader.value().readText().toString()), "one entry for " + path);
        }
        assertTrue(!column.isNull(row), "row " + row + " has a map");
        return entries;
    }

    @ParameterizedTest(name = "inline={0}")
    @ValueSource(booleans = {true, false})
    void valuesAreKeptAsWrittenAtEscapedPaths(boolean inline) {
        try (ParserHarness h = keeping(inline)) {
            h.parse("{\"id\":1,\"o\": {\"a\" : [1, {\"b\":null}]},\"n\":12.50,\"s\":\"x\\\"\\u00e9\",\"t\":true,\"z\":null,"
                    + "\"r\":{\"a\":2,\"zz\":-1e3,\"s\":{\"b\":\"y\",\"c\":[]}},\"r.zz\":\"top\",\"x[\":1,\"b\\\\c\":2}\n"
                    + "{\"id\":2}\n"
                    + "{\"id\":3,\"tags\":[{\"k\":1,\"inner\":5}],\"q\":\"first\",\"q\":\"last\"}\n");
            assertEquals(List.of(), h.bad);
            assertEquals(3, h.parser.rows());
            Map<String, String> first = unknown(h, 0);
            assertEquals("{\"a\" : [1, {\"b\":null}]}", first.get("o"));
            assertEquals("12.50", first.get("n"));
            assertEquals("\"x\\\"\\u00e9\"", first.get("s"));
            assertEquals("true", first.get("t"));
            assertEquals("null", first.get("z"));
            assertEquals("-1e3", first.get("r.zz"));
            assertEquals("[]", first.get("r.s.c"));
            assertEquals("\"top\"", first.get("r\\.zz"));
            assertEquals("1", first.get("x\\["));
            assertEquals("2", first.get("b\\\\c"));
            assertEquals(10, first.size(), first.toString());
            assertEquals(Map.of(), unknown(h, 1));
            assertEquals(Map.of("q", "\"last\""), unknown(h, 2), "a repeated key keeps its last value");
            assertEquals(1, h.parser.unknownFields().get("tags[].inner").count(), "inside an array: counted only");
            assertEquals(2, h.parser.unknownFields().get("q").count());
        }
    }

    @ParameterizedTest(name = "inline={0}")
    @ValueSource(booleans = {true, false})
    void aRejectedLineLeavesNoValues(boolean inline) {
        try (ParserHarness h = keeping(inline)) {
            h.parse("{\"id\":1,\"a\":1}\n{\"id\":\"bad\",\"b\":2}\n{\"id\":3,\"c\":3}\n");
            assertEquals(1, h.bad.size());
            assertEquals(2, h.parser.rows());
            assertEquals(Map.of("a", "1"), unknown(h, 0));
            assertEquals(Map.of("c", "3"), unknown(h, 1));
            assertEquals(null, h.parser.unknownFields().get("b"));
        }
    }

    @ParameterizedTest(name = "inline={0}")
    @ValueSource(booleans = {true, false})
    void theNextBatchStartsEmpty(boolean inline) {
        try (ParserHarness h = keeping(inline)) {
            h.parse("{\"id\":1,\"a\":\"one\"}\n");
            h.parser.clear();
            h.parse("{\"id\":2}\n{\"id\":3,\"b\":[2]}\n");
            assertEquals(2, h.parser.rows());
            assertEquals(Map.of(), unknown(h, 0));
            assertEquals(Map.of("b", "[2]"), unknown(h, 1));
        }
    }

    @ParameterizedTest(name = "inline={0}")
    @ValueSource(booleans = {true, false})
    void aKeyNamedLikeTheColumnIsAnUnknownKey(boolean inline) {
        try (ParserHarness h = keeping(inline)) {
            h.parse("{\"id\":1,\"_unknown\":{\"a\":1}}\n");
            assertEquals(Map.of("_unknown", "{\"a\":1}"), unknown(h, 0));
        }
    }

    @ParameterizedTest(name = "inline={0}")
    @ValueSource(booleans = {true, false})
    void dropAddsNoColumn(boolean inline) {
        try (ParserHarness h = new ParserHarness(SCHEMA, 1024, inline)) {
            h.parse("{\"id\":1,\"a\":1}\n");
            assertEquals(List.of("id", "r", "tags"), h.parser.batch().getSchema().getFields().stream()
                    .map(f -> f.getName()).toList());
            assertEquals(1, h.parser.unknownFields().get("a").count());
        }
    }

    @org.junit.jupiter.api.Test
    void aSchemaWithTheColumnIsRefused() {
        SchemaException e = assertThrows(SchemaException.class,
                () -> new ParserHarness("id BIGINT, _unknown STRING", UnknownFieldsMode.KEEP, 16, true,
                        LineLimit.defaultBytes()));
        assertTrue(e.getMessage().contains("'_unknown'"), e.getMessage());
    }
}
