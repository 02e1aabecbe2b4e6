package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.testing.DuckDb;

/**
 * The JSONTestSuite cases (operators/src/test/resources/conformance, one per line): every case a strict parser must
 * accept is a Parquet row, every case it must reject is in _rejected/ at its exact byte offset.
 */
class ConformanceIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The corpus in the operators module's test resources, where it lives in the repository. */
    static Path conformanceDir() {
        Path dir = Path.of("..", "operators", "src", "test", "resources", "conformance").toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new AssertionError("no conformance corpus at " + dir);
        }
        return dir;
    }

    @Test
    void strictVerdictsOnEveryCase() throws Exception {
        Path cases = conformanceDir().resolve("jsontestsuite.ndjson");
        JsonNode expected = JSON.readTree(conformanceDir().resolve("jsontestsuite.expected.json").toFile());
        Path output = dir.resolve("out");

        Cli.Result result = Cli.run("convert", cases.toString(), "-o", output.toString(),
                "--schema", "id BIGINT, v STRING", "--on-error", "reject", "--parallelism", "2",
                "--split-size", "4kb", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());

        Set<Long> acceptIds = new TreeSet<>();
        expected.get("accept").forEach(c -> acceptIds.add(c.get("id").asLong()));
        Set<Long> written = new TreeSet<>();
        DuckDb.query("SELECT id FROM " + DuckDb.parquet(output)).forEach(r -> written.add(((Number) r.get(0)).longValue()));
        assertEquals(acceptIds, written);

        TreeMap<Long, String> rejectOffsets = new TreeMap<>();
        expected.get("reject").forEach(c -> rejectOffsets.put(c.get("offset").asLong(), c.get("case").asText()));
        TreeMap<Long, String> rejectedOffsets = new TreeMap<>();
        try (Stream<Path> files = Files.list(output.resolve("_rejected"))) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    JsonNode record = JSON.readTree(line);
                    assertNotNull(record.get("error"));
                    rejectedOffsets.put(record.get("offset").asLong(), record.get("error").asText());
                }
            }
        }
        assertEquals(rejectOffsets.keySet(), rejectedOffsets.keySet());
        JsonNode manifest = JSON.readTree(output.resolve("_SUCCESS").toFile());
        assertEquals(acceptIds.size() + rejectOffsets.size(), manifest.get("records_in").asLong());
    }
}
