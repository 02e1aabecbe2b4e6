package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.NumberedLines.WAIT_SECONDS;
import static dev.parq.job.NumberedLines.append;
import static dev.parq.job.NumberedLines.committedRows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();

    @Test
    void followsRotatingLogsExactlyOnceThroughStopsAndKills() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        append(log, numbered.next(2000));

        Process ingest = start(logs, output);
        awaitRows(output, 2000, ingest);
        // A line written in two parts, then a rename rotation, lines to the old file after it, and a
        // new file whose last line is not complete yet.
        append(log, numbered.next(300) + "{\"seq\":" + numbered.nextSeq() + ",\"msg\":\"");
        Thread.sleep(300);
        append(log, "half\"}\n");
        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, numbered.next(200));
        append(log, numbered.next(100) + "{\"seq\":" + numbered.nextSeq());
        awaitRows(output, numbered.last() - 1, ingest);
        append(log, "}\n");
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        append(log, numbered.next(500));
        ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);
        append(log, numbered.next(500));
        Thread.sleep(1500);
        stop(ingest, "KILL", 137);

        append(rotated, numbered.next(250));
        append(log, numbered.next(250));
        ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        numbered.assertEachCommittedOnce(output);
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
        append(log, header + numbered.next(500));
        append(twin, header + numbered.next(500));
        Path output = dir.resolve("out");

        Process ingest = start(logs, output);
        awaitRows(output, 240 + numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, numbered.next(300));
        append(log, numbered.next(200) + "{\"seq\":" + numbered.nextSeq() + ",\"msg\":\"no line feed yet\"}");
        ingest = start(logs, output);
        awaitRows(output, 240 + numbered.last() - 1, ingest);
        Thread.sleep(2500);
        assertEquals(240 + numbered.last() - 1, committedRows(output), "the unfinished last line was committed");
        append(log, "\n");
        awaitRows(output, 240 + numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        List<List<Object>> counts = DuckDb.query("SELECT count(*) FILTER (WHERE seq = 0), count(*) FILTER (WHERE seq > 0),"
                + " count(DISTINCT seq) FILTER (WHERE seq > 0), max(seq) FROM " + DuckDb.parquet(output));
        assertEquals(List.of(240L, (long) numbered.last(), (long) numbered.last(), (long) numbered.last()),
                counts.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "headers, rows, distinct, max");
    }

    private Process start(Path logs, Path output) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("java", "-Xmx256m", "-jar", JAR.toString(), "ingest",
                logs.resolve("app.log*").toString(), "-o", output.toString(), "--schema", NumberedLines.SCHEMA,
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

    private void awaitRows(Path output, long rows, Process ingest) throws Exception {
        NumberedLines.awaitRows(output, rows, () -> assertTrue(ingest.isAlive(),
                "ingest ended: " + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8)));
    }
}
