package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.testing.DuckDb;

/** A file mixing good lines with each kind of bad line, in reject and in fail mode. */
class BadLinesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA = "id BIGINT, n INT, s STRING";

    @TempDir
    Path dir;

    private Path input;
    private final List<Long> goodIds = new ArrayList<>();
    /** Byte offset of each bad line, with a word its error must contain. */
    private final Map<Long, String> badOffsets = new TreeMap<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    private void good(long id, String line) {
        goodIds.add(id);
        append(line);
    }

    private void bad(String expectedInError, String line) {
        badOffsets.put((long) bytes.size(), expectedInError);
        append(line);
    }

    private void append(String line) {
        bytes.writeBytes(line.getBytes(StandardCharsets.UTF_8));
    }

    @BeforeEach
    void writeMixedFile() throws Exception {
        good(1, "{\"id\": 1, \"n\": 5, \"s\": \"ok\"}\n");
        bad("JSON", "{\"id\": 2, \"n\": NaN}\n");
        bad("JSON", "{\"id\": 3, \"n\": 01}\n");
        bad("JSON", "{\"id\": 4, \"s\": \"raw\ttab\"}\n");
        bad("JSON", "{\"id\": 5, \"n\": 1,}\n");
        bad("JSON", "{'id': 6}\n");
        badOffsets.put((long) bytes.size(), "UTF-8");
        bytes.writeBytes(new byte[] {'{', '"', 'i', 'd', '"', ':', '7', ',', '"', 's', '"', ':', '"', (byte) 0xff, '"', '}', '\n'});
        bad("object", "[1, 2]\n");
        good(8, "{\"id\": 8}\r\n");
        bad("trailing", "{\"id\": 9} x\n");
        bad("n", "{\"id\": 10, \"n\": 1.5}\n");
        bad("n", "{\"id\": 11, \"n\": \"12\"}\n");
        bad("n", "{\"id\": 12, \"n\": 99999999999}\n");
        append("\n   \n");
        good(13, "{\"s\": {\"nested\": [1, {\"x\": null}]}, \"id\": 13}\n");
        bad("JSON", "{\"id\": 14\n");
        good(15, "{\"id\": 15, \"n\": -2147483648}");
        input = dir.resolve("mixed.ndjson");
        Files.write(input, bytes.toByteArray());
    }

    @Test
    void rejectModeWritesEveryGoodLineAndRejectsEveryBadOneAtItsOffset() throws Exception {
        Path output = dir.resolve("out");
        Cli.Result result = Cli.run("convert", input.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--on-error", "reject", "--split-size", "100b", "--parallelism", "2", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());

        List<Long> ids = DuckDb.query("SELECT id FROM " + DuckDb.parquet(output) + " ORDER BY id").stream()
                .map(r -> ((Number) r.get(0)).longValue()).toList();
        assertEquals(goodIds, ids);
        assertEquals("{\"nested\": [1, {\"x\": null}]}",
                DuckDb.query("SELECT s FROM " + DuckDb.parquet(output) + " WHERE id = 13").get(0).get(0));

        Map<Long, JsonNode> rejected = new TreeMap<>();
        try (Stream<Path> files = Files.list(output.resolve("_rejected"))) {
            for (Path file : files.toList()) {
                assertTrue(file.getFileName().toString().endsWith(".ndjson"), file.toString());
                for (String line : Files.readAllLines(file)) {
                    JsonNode record = JSON.readTree(line);
                    assertEquals(input.toString(), record.get("file").asText());
                    rejected.put(record.get("offset").asLong(), record);
                }
            }
        }
        assertEquals(badOffsets.keySet(), rejected.keySet());
        byte[] all = bytes.toByteArray();
        for (Map.Entry<Long, String> bad : badOffsets.entrySet()) {
            JsonNode record = rejected.get(bad.getKey());
            assertTrue(record.get("error").asText().contains(bad.getValue()),
                    "error for offset " + bad.getKey() + ": " + record);
            byte[] line = record.has("line")
                    ? record.get("line").asText().getBytes(StandardCharsets.UTF_8)
                    : Base64.getDecoder().decode(record.get("line_base64").asText());
            for (int i = 0; i < line.length; i++) {
                assertEquals(all[(int) (bad.getKey() + i)], line[i], "rejected bytes at offset " + bad.getKey());
            }
        }
        assertTrue(rejected.values().stream().anyMatch(r -> r.has("line_base64")), "invalid UTF-8 kept as base64");

        JsonNode manifest = JSON.readTree(output.resolve("_SUCCESS").toFile());
        assertEquals(goodIds.size() + badOffsets.size(), manifest.get("records_in").asLong());
        assertEquals(goodIds.size(), manifest.get("rows_written").asLong());
        assertEquals(badOffsets.size(), manifest.get("rejected").asLong());
        assertTrue(result.out().contains("rejected       " + badOffsets.size()), result.out());
    }

    @Test
    void failModeExitsOneNamingTheFirstBadOffset() {
        Path output = dir.resolve("out");
        Cli.Result result = Cli.run("convert", input.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--no-progress", "--parallelism", "1");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        long first = badOffsets.keySet().iterator().next();
        assertTrue(result.err().contains(input + ": bad line at byte " + first + ":"), result.err());
        // The run created the directory, so it removes it again with its unfinished files: the same
        // command with --on-error reject then runs into it without --overwrite.
        assertFalse(Files.exists(output), "the failed run left its output directory behind");
        Cli.Result again = Cli.run("convert", input.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--no-progress", "--parallelism", "1", "--on-error", "reject");
        assertEquals(0, again.exitCode(), again.out() + again.err());
        assertTrue(Files.exists(output.resolve("_SUCCESS")));
    }

    @Test
    void aFailedRunLeavesAnEmptyOutputDirectoryEmpty() throws Exception {
        // Whole batches reach the writer before the bad line, so a part file is open when it fails.
        Path late = dir.resolve("late-bad-line.ndjson");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            lines.append("{\"id\":").append(i).append(",\"n\":1,\"s\":\"line ").append(i).append("\"}\n");
        }
        Files.writeString(late, lines + "{\"id\":1,\"n\":\"two\"}\n", StandardCharsets.UTF_8);
        Path output = Files.createDirectories(dir.resolve("given"));
        Cli.Result result = Cli.run("convert", late.toString(), "-o", output.toString(), "--schema", SCHEMA,
                "--no-progress", "--parallelism", "1");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        assertTrue(result.err().contains(late + ": bad line at byte " + lines.length() + ":"), result.err());
        assertTrue(Files.isDirectory(output), "the directory the user made is kept");
        try (Stream<Path> left = Files.list(output)) {
            assertEquals(List.of(), left.toList(), "unfinished files were left behind");
        }
    }
}
