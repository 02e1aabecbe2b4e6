package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.parq.testing.DuckDb;

/**
 * {@code --unknown-fields keep} through the real jar: every line of a generated corpus is rebuilt
 * from what DuckDB reads back, the known columns with each {@code _unknown} value parsed and set at
 * its path, and must equal the line parsed, less the keys inside arrays.
 */
class UnknownFieldsIT {

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SCHEMA = "id BIGINT, name STRING, `user` ROW<id BIGINT, geo ROW<lat DOUBLE>>,"
            + " tags ARRAY<ROW<k STRING>>";
    /** Unknown values of every JSON type, as written: spacing, escapes and number spellings kept. */
    private static final String[] VALUES = {"{\"a\": 1, \"b\" : [true, null]}", "[1, \"two\", {\"three\": 3}]",
        "\"tab\\t \\\"q\\\" \\u00e9 \\ud83d\\ude80 \\\\\"", "\"zoë 🚀\"", "12.50", "-0.0", "1e5", "-2.5E-3",
        "123456789012345678901234567890", "true", "false", "null", "{}", "[]", "\"\""};
    /** Unknown key names, those that need escaping in a path among them. */
    private static final String[] KEYS = {"extra", "user.zz", "a.b.c", "x[", "b\\c", "dot.", "[0]", "é", "zz", "q"};

    @TempDir
    Path dir;

    private ParqJar.Run parq(String... args) throws IOException, InterruptedException {
        return ParqJar.run(dir, "512m", args);
    }

    /** A line with known keys, unknown ones at the top level, in {@code user}, in {@code user.geo}, in array elements. */
    private static String line(long id, Random random) {
        StringBuilder line = new StringBuilder("{\"id\": ").append(id);
        if (random.nextBoolean()) {
            line.append(", \"name\": \"n\\\"").append(id).append('"');
        }
        unknownMembers(line, random);
        if (random.nextInt(4) != 0) {
            line.append(", \"user\": {\"id\": ").append(id * 7);
            unknownMembers(line, random);
            if (random.nextBoolean()) {
                line.append(", \"geo\": {\"lat\": ").append(random.nextInt(9000) / 100.0);
                unknownMembers(line, random);
                line.append('}');
            }
            line.append('}');
        }
        if (random.nextBoolean()) {
            line.append(", \"tags\": [{\"k\": \"a\", \"inner\": 1}, {\"k\": \"b\", \"x.y\": {\"z\": 2}}]");
        }
        line.append('}');
        return line.toString();
    }

    private static void unknownMembers(StringBuilder line, Random random) {
        for (int n = random.nextInt(4); n > 0; n--) {
            String key = KEYS[random.nextInt(KEYS.length)].replace("\\", "\\\\");
            line.append(", \"").append(key).append("\":").append(random.nextBoolean() ? " " : "")
                    .append(VALUES[random.nextInt(VALUES.length)]);
        }
    }

    @Test
    void everyKeyOfEveryLineIsRebuiltFromTheColumnsAndUnknown() throws Exception {
        Random random = new Random(19);
        List<String> lines = new ArrayList<>();
        for (long id = 0; id < 2000; id++) {
            lines.add(line(id, random));
        }
        lines.add("{\"id\": 2000, \"user.zz\": \"top\", \"user\": {\"id\": 1, \"zz\": \"inner\"}, \"n\": 12.50,"
                + " \"o\":  {\"a\" :  1}}");
        lines.add("{\"id\": 2001, \"q\": 1, \"q\": \"last\"}");
        Path input = dir.resolve("in.ndjson");
        Files.write(input, lines, StandardCharsets.UTF_8);
        Path output = dir.resolve("out");

        ParqJar.Run run = parq("convert", input.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--unknown-fields", "keep", "--split-size", "64kb", "-p", "2", "--no-progress");
        assertEquals(0, run.exit(), run.err());

        Map<Long, JsonNode> rebuilt = new HashMap<>();
        DuckDb.forEachRow("SELECT id, to_json(t)::VARCHAR FROM read_parquet(" + DuckDb.literal(output.resolve("*.parquet"))
                + ") t",
                rs -> rebuilt.put(rs.getLong(1), rebuild(rs.getString(2))));
        assertEquals(lines.size(), rebuilt.size());
        Comparator<JsonNode> numbersByValue = (a, b) -> a.isNumber() && b.isNumber()
                ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;
        for (String line : lines) {
            JsonNode expected = withoutArrayElementKeys(JSON.readTree(line));
            JsonNode actual = rebuilt.get(expected.get("id").asLong());
            assertTrue(expected.equals(numbersByValue, actual), "line " + line + "\nrebuilt " + actual);
        }

        assertEquals(Map.of("user\\.zz", "\"top\"", "user.zz", "\"inner\"", "n", "12.50", "o", "{\"a\" :  1}"),
                unknownOf(output, 2000), "the values' text exactly as written");
        assertEquals(Map.of("q", "\"last\""), unknownOf(output, 2001));

        JsonNode manifest = JSON.readTree(output.resolve("_SUCCESS").toFile());
        JsonNode unknown = manifest.get("unknown_fields");
        assertEquals("keep", manifest.get("unknown_fields_mode").asText());
        assertTrue(unknown.has("user\\.zz") && unknown.has("user.zz") && unknown.has("x\\[") && unknown.has("b\\\\c")
                && unknown.has("tags[].inner") && unknown.has("tags[].x\\.y"), unknown.toString());
    }

    private Map<String, String> unknownOf(Path output, long id) throws Exception {
        Map<String, String> entries = new HashMap<>();
        DuckDb.forEachRow("SELECT unnest(map_keys(_unknown)), unnest(map_values(_unknown)) FROM read_parquet("
                + DuckDb.literal(output.resolve("*.parquet")) + ") WHERE id = " + id,
                rs -> entries.put(rs.getString(1), rs.getString(2)));
        return entries;
    }

    /** A row read back as JSON: its non-null columns, with each {@code _unknown} value set at its path. */
    private static JsonNode rebuild(String rowJson) {
        try {
            ObjectNode row = withoutNulls((ObjectNode) JSON.readTree(rowJson));
            JsonNode unknown = row.remove("_unknown");
            for (Iterator<Map.Entry<String, JsonNode>> it = unknown.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                List<String> path = segments(entry.getKey());
                ObjectNode parent = row;
                for (String segment : path.subList(0, path.size() - 1)) {
                    parent = parent.has(segment) ? (ObjectNode) parent.get(segment) : parent.putObject(segment);
                }
                parent.set(path.get(path.size() - 1), JSON.readTree(entry.getValue().asText()));
            }
            return row;
        } catch (IOException e) {
            throw new AssertionError(rowJson, e);
        }
    }

    /** A path's key names: split at its unescaped dots, the backslash escapes undone. */
    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        StringBuilder segment = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\\') {
                segment.append(path.charAt(++i));
            } else if (c == '.') {
                segments.add(segment.toString());
                segment.setLength(0);
            } else {
                segment.append(c);
            }
        }
        segments.add(segment.toString());
        return segments;
    }

    /** A Parquet null is a missing key: the corpus has no known key whose value is null. */
    private static ObjectNode withoutNulls(ObjectNode object) {
        ObjectNode copy = NODES.objectNode();
        object.fields().forEachRemaining(e -> {
            if (e.getValue().isObject()) {
                copy.set(e.getKey(), withoutNulls((ObjectNode) e.getValue()));
            } else if (!e.getValue().isNull()) {
                copy.set(e.getKey(), e.getValue());
            }
        });
        return copy;
    }

    /** The line as parq can give it back: of the objects in {@code tags}, only the key {@code k}. */
    private static JsonNode withoutArrayElementKeys(JsonNode line) {
        JsonNode tags = line.get("tags");
        if (tags != null) {
            for (JsonNode element : (ArrayNode) tags) {
                ((ObjectNode) element).retain("k");
            }
        }
        return line;
    }

    @Test
    void aSchemaWithTheColumnIsAUsageErrorWithKeep() throws Exception {
        Path input = dir.resolve("in.ndjson");
        Files.writeString(input, "{\"id\": 1}\n");
        ParqJar.Run run = parq("convert", input.toString(), "-o", dir.resolve("out").toString(),
                "--schema", "id BIGINT, _unknown STRING", "--unknown-fields", "keep", "--no-progress");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("the schema has a column '_unknown'"), run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertFalse(Files.exists(dir.resolve("out").resolve("_SUCCESS")));
    }

    @Test
    void byDefaultTheKeysAreCountedAndNoColumnIsAdded() throws Exception {
        Path input = dir.resolve("in.ndjson");
        Files.writeString(input, "{\"id\": 1, \"extra\": {\"a\": 1}}\n{\"id\": 2, \"_unknown\": 3}\n");
        Path output = dir.resolve("out");
        ParqJar.Run run = parq("convert", input.toString(), "-o", output.toString(), "--schema", "id BIGINT", "--no-progress");
        assertEquals(0, run.exit(), run.err());
        List<String> columns = new ArrayList<>();
        DuckDb.forEachRow("DESCRIBE SELECT * FROM read_parquet(" + DuckDb.literal(output.resolve("*.parquet")) + ")",
                rs -> columns.add(rs.getString(1)));
        assertEquals(List.of("id"), columns);
        JsonNode manifest = JSON.readTree(output.resolve("_SUCCESS").toFile());
        assertEquals("drop", manifest.get("unknown_fields_mode").asText());
        assertEquals(1, manifest.get("unknown_fields").get("extra").get("count").asLong());
        assertEquals(1, manifest.get("unknown_fields").get("_unknown").get("count").asLong());
        assertEquals(2, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + DuckDb.literal(output.resolve("*.parquet"))
                + ")"));
    }
}
