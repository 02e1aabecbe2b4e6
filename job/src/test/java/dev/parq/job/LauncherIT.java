package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded jar as a user runs it: a separate {@code java -jar parq.jar} process. */
class LauncherIT {

    private static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    private static final Path SAMPLE = Path.of("..", "examples", "app-logs.ndjson").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    private Run parq(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("java", "-Xmx768m", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile())
                .start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "parq did not finish");
        return new Run(process.exitValue(),
                Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }

    @Test
    void helpTellsTheCommandsAndOptions() throws Exception {
        Run top = parq("--help");
        assertEquals(0, top.exit(), top.err());
        assertTrue(top.out().contains("convert") && top.out().contains("schema") && top.out().contains("array"), top.out());
        Run convert = parq("convert", "--help");
        assertEquals(0, convert.exit());
        for (String option : List.of("--output", "--schema", "--compression", "--row-group-size", "--split-size",
                "--parallelism", "--on-error", "--overwrite")) {
            assertTrue(convert.out().contains(option), option + " in\n" + convert.out());
        }
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Run noOutput = parq("convert", SAMPLE.toString());
        assertEquals(2, noOutput.exit());
        assertTrue(noOutput.err().contains("--output"), noOutput.err());
        Run missing = parq("convert", dir.resolve("nope.ndjson").toString(), "-o", dir.resolve("out").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("input not found"), missing.err());
        Run badCodec = parq("convert", SAMPLE.toString(), "-o", dir.resolve("out").toString(), "--compression", "brotli9");
        assertEquals(2, badCodec.exit(), badCodec.err());
        Run badSize = parq("convert", SAMPLE.toString(), "-o", dir.resolve("out").toString(), "--split-size", "lots");
        assertEquals(2, badSize.exit(), badSize.err());
    }

    @Test
    void convertsTheShippedSampleAndInfersItsSchema() throws Exception {
        Run schema = parq("schema", SAMPLE.toString());
        assertEquals(0, schema.exit(), schema.err());
        assertTrue(schema.out().contains("ts TIMESTAMP_LTZ(3)"), schema.out());
        assertTrue(schema.out().contains("`user` ROW<id BIGINT, name STRING, country STRING>")
                || schema.out().contains("user ROW<id BIGINT, name STRING, country STRING>"), schema.out());

        Path output = dir.resolve("out");
        Run convert = parq("convert", SAMPLE.toString(), "-o", output.toString(), "--compression", "zstd");
        assertEquals(0, convert.exit(), convert.err());
        assertTrue(convert.out().contains("rows written   500"), convert.out());
        assertEquals(500, DuckDb.count(DuckDb.parquet(output)));
        assertEquals("ZSTD", DuckDb.query("SELECT DISTINCT compression FROM parquet_metadata('"
                + output.resolve("*.parquet") + "')").get(0).get(0));
        long errors = DuckDb.count(DuckDb.parquet(output) + " WHERE error.code IS NOT NULL");
        assertEquals(Files.readAllLines(SAMPLE).stream().filter(l -> l.contains("\"error\"")).count(), errors);
    }
}
