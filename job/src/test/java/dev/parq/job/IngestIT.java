package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.testing.DuckDb;

/**
 * {@code parq ingest} as its own process, on files that a writer appends to and rotates: lines
 * split over two writes, a rename rotation with lines written to the old file after it, a partial
 * last line completed later; stopped with SIGTERM (a savepoint) and with SIGKILL, started again with
 * the same command. What is committed holds every line exactly once, read by DuckDB.
 */
class IngestIT {

    private static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    private static final long WAIT_SECONDS = 90;

    @TempDir
    Path dir;

    private int seq;

    @Test
    void followsRotatingLogsExactlyOnceThroughStopsAndKills() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        append(log, lines(2000));

        Process ingest = start(logs, output);
        awaitRows(output, 2000, ingest);
        // A line written in two parts, then a rename rotation, lines to the old file after it, and a
        // new file whose last line is not complete yet.
        append(log, lines(300) + "{\"seq\":" + (++seq) + ",\"msg\":\"");
        Thread.sleep(300);
        append(log, "half\"}\n");
        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, lines(200));
        append(log, lines(100) + "{\"seq\":" + (++seq));
        awaitRows(output, seq - 1, ingest);
        append(log, "}\n");
        awaitRows(output, seq, ingest);
        stop(ingest, "TERM", 0);

        append(log, lines(500));
        ingest = start(logs, output);
        awaitRows(output, seq, ingest);
        append(log, lines(500));
        Thread.sleep(1500);
        stop(ingest, "KILL", 137);

        append(rotated, lines(250));
        append(log, lines(250));
        ingest = start(logs, output);
        awaitRows(output, seq, ingest);
        stop(ingest, "TERM", 0);

        List<List<Object>> counts = DuckDb.query("SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM "
                + DuckDb.parquet(output));
        assertEquals(List.of((long) seq, (long) seq, 1L, (long) seq),
                counts.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "rows, distinct, min, max");
    }

    /**
     * A rename rotation while parq is stopped, two files whose first 4 KiB are the same, and a last
     * line without its line feed, which is not committed until it has one.
     */
    @Test
    void rotationWhileStoppedFilesAlikeAtTheStartAndAnUnfinishedLastLine() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path twin = logs.resolve("app.log.twin");
        String header = "{\"seq\":0,\"msg\":\"the same header line in both files\"}\n".repeat(120);
        append(log, header + lines(500));
        append(twin, header + lines(500));
        Path output = dir.resolve("out");

        Process ingest = start(logs, output);
        awaitRows(output, 240 + seq, ingest);
        stop(ingest, "TERM", 0);

        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, lines(300));
        append(log, lines(200) + "{\"seq\":" + (++seq) + ",\"msg\":\"no line feed yet\"}");
        ingest = start(logs, output);
        awaitRows(output, 240 + seq - 1, ingest);
        Thread.sleep(2500);
        assertEquals(240 + seq - 1, committedRows(output), "the unfinished last line was committed");
        append(log, "\n");
        awaitRows(output, 240 + seq, ingest);
        stop(ingest, "TERM", 0);

        List<List<Object>> counts = DuckDb.query("SELECT count(*) FILTER (WHERE seq = 0), count(*) FILTER (WHERE seq > 0),"
                + " count(DISTINCT seq) FILTER (WHERE seq > 0), max(seq) FROM " + DuckDb.parquet(output));
        assertEquals(List.of(240L, (long) seq, (long) seq, (long) seq),
                counts.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "headers, rows, distinct, max");
    }

    private Process start(Path logs, Path output) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("java", "-Xmx256m", "-jar", JAR.toString(), "ingest",
                logs.resolve("app.log*").toString(), "-o", output.toString(), "--schema", "seq BIGINT, msg STRING",
                "--checkpoint-interval", "1s", "--discover-interval", "200ms", "-p", "2")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr").toFile()));
        return builder.start();
    }

    /** Sends the signal and checks the exit code: 0 after a savepoint, 137 for SIGKILL. */
    private void stop(Process ingest, String signal, int exitCode) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(ingest.pid())).start();
        assertEquals(0, kill.waitFor());
        assertTrue(ingest.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "ingest did not stop on SIG" + signal);
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        assertEquals(exitCode, ingest.exitValue(), err);
        if (exitCode == 0) {
            assertTrue(err.strip().lines().reduce((a, b) -> b).orElse("").startsWith("parq: stopped with savepoint "), err);
        }
    }

    /** Waits until the committed Parquet files hold {@code rows} rows. */
    private void awaitRows(Path output, long rows, Process ingest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        long seen = -1;
        while (System.nanoTime() < deadline) {
            assertTrue(ingest.isAlive(), "ingest ended: " + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
            seen = committedRows(output);
            if (seen == rows) {
                return;
            }
            assertTrue(seen < rows, "more rows than lines: " + seen + " > " + rows);
            Thread.sleep(200);
        }
        throw new AssertionError("after " + WAIT_SECONDS + " s " + seen + " rows are committed, not " + rows);
    }

    private static long committedRows(Path output) throws Exception {
        if (!Files.isDirectory(output)) {
            return 0;
        }
        try (var files = Files.list(output)) {
            if (files.noneMatch(p -> p.getFileName().toString().endsWith(".parquet"))) {
                return 0;
            }
        }
        return DuckDb.count(DuckDb.parquet(output));
    }

    private String lines(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("{\"seq\":").append(++seq).append(",\"msg\":\"line ").append(seq).append("\"}\n");
        }
        return text.toString();
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
