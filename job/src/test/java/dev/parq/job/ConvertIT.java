package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.parq.job.cli.Parq;
import dev.parq.testing.DuckDb;

/**
 * Generated NDJSON with known contents, several splits, parallelism 2, through the real command on
 * Flink's MiniCluster; the Parquet output is read back by DuckDB and compared value by value.
 */
class ConvertIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SCHEMA = "id BIGINT, name STRING, score DOUBLE, ok BOOLEAN, level TINYINT,"
            + " amount DECIMAL(12, 3), `day` DATE, ts TIMESTAMP_LTZ(3), local_ts TIMESTAMP(6),"
            + " `user` ROW<id BIGINT, tags ARRAY<STRING>>, attrs MAP<STRING, BIGINT>, `raw` STRING";
    private static final String[] NAMES = {"alice", "zoë 🚀", "tab\there \"quoted\"", "", "back\\slash", "日本語"};
    private static final String[] RAW = {"{\"x\": [1, 2]}", "42", "true", "[ ]", "\"plain\"", "-0.5e3"};

    @TempDir
    Path dir;

    /** One generated line and the values each column must hold afterwards. */
    record Row(long id, String line, String name, Double score, Boolean ok, Integer level, String amount,
            String day, Long tsMillis, Long localMicros, JsonNode user, JsonNode attrs, String raw) {}

    static Row row(long id) {
        Random random = new Random(id);
        ObjectNode json = NODES.objectNode();
        json.put("id", id);
        String name = random.nextInt(10) == 0 ? null : NAMES[random.nextInt(NAMES.length)];
        if (name != null) {
            json.put("name", name);
        } else if (random.nextBoolean()) {
            json.putNull("name");
        }
        Double score = null;
        switch (random.nextInt(4)) {
            case 0 -> json.putNull("score");
            case 1 -> {
                score = (double) random.nextInt(1000);
                json.put("score", score.longValue());
            }
            default -> {
                score = random.nextDouble() * 1e6 - 5e5;
                json.put("score", score);
            }
        }
        Boolean ok = random.nextInt(5) == 0 ? null : random.nextBoolean();
        if (ok != null) {
            json.put("ok", ok);
        }
        int level = random.nextInt(256) - 128;
        json.put("level", level);
        BigDecimal amount = BigDecimal.valueOf(random.nextInt(2_000_000_000) - 1_000_000_000L, 3);
        json.put("amount", amount);
        LocalDate day = LocalDate.of(2020, 1, 1).plusDays(random.nextInt(2000));
        json.put("day", day.toString());
        OffsetDateTime ts = OffsetDateTime.of(
                LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(random.nextInt(100_000_000)).plusNanos(random.nextInt(1000) * 1_000_000L),
                ZoneOffset.ofHours(random.nextInt(25) - 12));
        json.put("ts", ts.toString());
        LocalDateTime local = LocalDateTime.of(2023, 6, 1, 12, 0).plusNanos(random.nextInt(1_000_000_000) * 1000L);
        json.put("local_ts", local.toString());
        JsonNode user = NODES.nullNode();
        if (random.nextInt(6) != 0) {
            ObjectNode u = json.putObject("user");
            u.put("id", id * 10);
            if (random.nextBoolean()) {
                u.put("extra", "not in the schema");
            }
            ArrayNode tags = null;
            switch (random.nextInt(3)) {
                case 0 -> u.putNull("tags");
                case 1 -> tags = u.putArray("tags");
                default -> {
                    tags = u.putArray("tags");
                    tags.add("t" + random.nextInt(5));
                    tags.addNull();
                    tags.add("é");
                }
            }
            ObjectNode expected = NODES.objectNode();
            expected.put("id", id * 10);
            expected.set("tags", tags == null ? NODES.nullNode() : tags.deepCopy());
            user = expected;
        }
        ObjectNode attrs = NODES.objectNode();
        if (random.nextBoolean()) {
            attrs.put("k" + random.nextInt(3), random.nextLong());
            attrs.putNull("empty");
        }
        json.set("attrs", attrs);
        String raw = RAW[random.nextInt(RAW.length)];
        if (id % 7 == 0) {
            json.put("extra", id);
        }
        String line = json.toString();
        // The raw column holds any JSON value; its text must come through exactly as written.
        line = line.substring(0, line.length() - 1) + ",\"raw\":" + raw + "}";
        return new Row(id, line, name, score, ok, level, amount.toPlainString(), day.toString(),
                ts.toInstant().toEpochMilli(), local.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + local.getNano() / 1000,
                user, attrs, raw.startsWith("\"") ? "plain" : raw);
    }

    @Test
    void convertsGeneratedLogsValueByValue() throws Exception {
        int rows = 6000;
        List<Row> expected = new ArrayList<>();
        Path input = Files.createDirectories(dir.resolve("in"));
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (long id = 0; id < rows; id++) {
            Row row = row(id);
            expected.add(row);
            if (id < rows / 2) {
                first.append(row.line()).append('\n');
                if (id % 100 == 0) {
                    first.append("   \n\n");
                }
            } else {
                second.append(row.line()).append("\r\n");
            }
        }
        Files.writeString(input.resolve("a.ndjson"), first, StandardCharsets.UTF_8);
        // CRLF line ends, and a last line without a line end.
        Files.writeString(input.resolve("b.ndjson"), second.substring(0, second.length() - 2), StandardCharsets.UTF_8);
        Files.writeString(input.resolve("empty.ndjson"), "");
        Path output = dir.resolve("out");

        int exit = Parq.execute("convert", input.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--split-size", "64kb", "--parallelism", "2", "--no-progress");
        assertEquals(0, exit);

        List<List<Object>> actual = DuckDb.query("SELECT id, name, score, ok, level, CAST(amount AS VARCHAR),"
                + " CAST(\"day\" AS VARCHAR), epoch_ms(ts), epoch_us(local_ts), to_json(\"user\"), to_json(attrs), raw"
                + " FROM " + DuckDb.parquet(output) + " ORDER BY id");
        assertEquals(rows, actual.size());
        for (int i = 0; i < rows; i++) {
            Row want = expected.get(i);
            List<Object> got = actual.get(i);
            String where = "row " + i + ": " + want.line();
            assertEquals(want.id(), ((Number) got.get(0)).longValue(), where);
            assertEquals(want.name(), got.get(1), where);
            assertEquals(want.score(), got.get(2) == null ? null : ((Number) got.get(2)).doubleValue(), where);
            assertEquals(want.ok(), got.get(3), where);
            assertEquals(want.level(), ((Number) got.get(4)).intValue(), where);
            assertEquals(want.amount(), got.get(5), where);
            assertEquals(want.day(), got.get(6), where);
            assertEquals(want.tsMillis(), ((Number) got.get(7)).longValue(), where);
            assertEquals(want.localMicros(), ((Number) got.get(8)).longValue(), where);
            assertJsonEquals(want.user(), got.get(9), where);
            assertJsonEquals(want.attrs(), got.get(10), where);
            assertEquals(want.raw(), got.get(11), where);
        }

        JsonNode manifest = JSON.readTree(output.resolve("_SUCCESS").toFile());
        assertEquals(rows, manifest.get("records_in").asLong());
        assertEquals(rows, manifest.get("rows_written").asLong());
        assertEquals(0, manifest.get("rejected").asLong());
        assertEquals(3, manifest.get("inputs").size());
        assertEquals(Files.size(input.resolve("a.ndjson")) + Files.size(input.resolve("b.ndjson")),
                manifest.get("bytes_in").asLong());
        assertEquals(rows / 7 + 1, manifest.get("unknown_fields").get("extra").get("count").asLong());
        assertEquals(input.resolve("a.ndjson").toString(),
                manifest.get("unknown_fields").get("extra").get("first_file").asText());
        assertEquals(0, manifest.get("unknown_fields").get("extra").get("first_offset").asLong());
        assertTrue(manifest.get("unknown_fields").has("user.extra"), manifest.toString());
        long rowsInFiles = 0;
        for (JsonNode file : manifest.get("files")) {
            assertTrue(file.get("path").asText().endsWith(".parquet"), file.toString());
            assertEquals(Files.size(output.resolve(file.get("path").asText())), file.get("bytes").asLong());
            rowsInFiles += file.get("rows").asLong();
        }
        assertEquals(rows, rowsInFiles);
        assertEquals(TableSchemaDdl.normalized(SCHEMA), manifest.get("schema").asText());
        try (Stream<Path> entries = Files.list(output)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
            assertTrue(names.stream().allMatch(n -> n.endsWith(".parquet") || n.equals("_SUCCESS")), names.toString());
        }
    }

    @Test
    void refusesANonEmptyOutputUnlessOverwrite() throws IOException {
        Path input = dir.resolve("in.ndjson");
        Files.writeString(input, "{\"a\":1}\n");
        Path output = Files.createDirectories(dir.resolve("out"));
        Files.writeString(output.resolve("keep.txt"), "x");
        assertEquals(2, Parq.execute("convert", input.toString(), "-o", output.toString(), "--no-progress"));
        assertTrue(Files.exists(output.resolve("keep.txt")));
        assertEquals(0, Parq.execute("convert", input.toString(), "-o", output.toString(), "--overwrite", "--no-progress"));
        assertFalse(Files.exists(output.resolve("keep.txt")));
        assertEquals("a BIGINT", JSON.readTree(output.resolve("_SUCCESS").toFile()).get("schema").asText());
    }

    @Test
    void readsTheSchemaFromAFile() throws Exception {
        Path input = dir.resolve("in.ndjson");
        Files.writeString(input, "{\"a\": 1, \"b\": \"x y\"}\n");
        Path schema = dir.resolve("schema.ddl");
        Files.writeString(schema, "a INT,\n b STRING\n");
        Path output = dir.resolve("out");
        assertEquals(0, Parq.execute("convert", input.toString(), "-o", output.toString(), "--schema", "@" + schema,
                "--no-progress"));
        assertEquals("a INT, b STRING", JSON.readTree(output.resolve("_SUCCESS").toFile()).get("schema").asText());
        assertEquals(List.of(List.of(1, "x y")), DuckDb.query("SELECT a, b FROM " + DuckDb.parquet(output)));
    }

    private static void assertJsonEquals(JsonNode expected, Object actualJson, String where) throws IOException {
        JsonNode actual = actualJson == null ? NODES.nullNode() : JSON.readTree(actualJson.toString());
        Comparator<JsonNode> numbersByValue = (a, b) -> a.isNumber() && b.isNumber()
                ? Double.compare(a.doubleValue(), b.doubleValue())
                : a.equals(b) ? 0 : 1;
        assertTrue(expected.equals(numbersByValue, actual), where + "\n expected " + expected + "\n actual   " + actual);
    }

    /** The embedded cluster's network buffers, smaller than Flink's local default, grow with the slots. */
    @Test
    void aConversionWithManyParallelWritersGetsTheBuffersItNeeds(@TempDir Path dir) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            lines.append("{\"id\":").append(i).append("}\n");
        }
        Path input = Files.writeString(dir.resolve("in.ndjson"), lines);
        Path output = dir.resolve("out");
        Cli.Result result = Cli.run("convert", input.toString(), "-o", output.toString(), "-p", "40",
                "--split-size", "8kb", "--schema", "id BIGINT", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());
        assertEquals(40_000L, DuckDb.count(DuckDb.parquet(output)));
        Number sum = (Number) DuckDb.query("SELECT sum(id) FROM " + DuckDb.parquet(output)).get(0).get(0);
        assertEquals(40_000L * 39_999 / 2, sum.longValue());
    }
}
