package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.parq.job.mutation.Mutation;
import dev.parq.testing.DuckDb;

/**
 * parq processes of the S3 tests, pointed at the test server, their output in one folder, and what
 * their ingests have committed to a bucket: the rows of its visible Parquet objects under
 * {@code out/}.
 */
final class S3Ingests {

    /**
     * How long a mutated run waits for rows: twice what a sound build takes to commit its first rows
     * (an ingest to S3 starts in some 25 s), so that a mutation's twin cannot pass on a slow start.
     */
    private static final long MUTATED_WAIT_SECONDS = 60;

    private final S3Server s3;
    private final Path dir;
    private final List<Process> started = new ArrayList<>();
    /** The defect the parq processes run with, if any. */
    Mutation mutation;
    /**
     * Whether the defect leaves the rows to come as a sound build's do (it breaks something else):
     * its twin then waits for them as long as the sound build's test does.
     */
    boolean rowsUnaffected;
    /** Flags every parq process is given after its arguments, such as {@code -D key=value}. */
    final List<String> flags = new ArrayList<>();
    /** Where the parq processes find the store: the server, or a proxy in front of it. */
    String endpoint = S3Server.ENDPOINT;

    S3Ingests(S3Server s3, Path dir) {
        this.s3 = s3;
        this.dir = dir;
    }

    Process start(String... args) throws Exception {
        List<String> command = ParqJar.java("-Xmx256m");
        if (mutation != null) {
            command.add(mutation.javaAgent());
        }
        command.addAll(List.of("-jar", ParqJar.JAR.toString()));
        command.addAll(List.of(args));
        command.addAll(S3Server.flags(endpoint));
        command.addAll(flags);
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr").toFile()))
                .start();
        started.add(process);
        return process;
    }

    /** Sends the signal and checks the exit code: 0 after a savepoint, 137 for SIGKILL. */
    void signal(Process process, String signal, int exitCode) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor());
        assertTrue(process.waitFor(NumberedLines.WAIT_SECONDS, TimeUnit.SECONDS), "did not stop on SIG" + signal);
        assertEquals(exitCode, process.exitValue(), stderr());
    }

    String stderr() throws Exception {
        Path err = dir.resolve("stderr");
        return Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "";
    }

    /** Waits until {@code bucket} holds {@code rows} committed rows, while {@code ingest} runs. */
    void awaitRows(String bucket, long rows, Process ingest) throws Exception {
        awaitRows(bucket, rows, () -> assertTrue(ingest.isAlive(), "ingest ended: " + stderr()));
    }

    /** An assertion that the ingest still runs, made before each look at the committed rows. */
    interface StillRunning {
        void check() throws Exception;
    }

    /** Waits until {@code bucket} holds {@code rows} committed rows, checking {@code running} before each look. */
    void awaitRows(String bucket, long rows, StillRunning running) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(mutation == null || rowsUnaffected
                ? NumberedLines.WAIT_SECONDS : MUTATED_WAIT_SECONDS);
        long seen = -1;
        while (System.nanoTime() < deadline) {
            running.check();
            seen = committedRows(bucket);
            if (seen == rows) {
                return;
            }
            assertTrue(seen < rows, "more rows than lines: " + seen + " > " + rows);
            Thread.sleep(500);
        }
        throw new AssertionError(seen + " rows are committed, not " + rows);
    }

    /**
     * The rows of the Parquet objects a reader of {@code bucket}'s output sees: files not hidden by
     * {@code .} or {@code _}. Only those are downloaded: a hidden part file listed a moment ago may
     * be gone by its download, deleted once its compacted file is committed.
     */
    long committedRows(String bucket) throws Exception {
        Path files = Files.createTempDirectory(dir, "visible");
        List<String> visible = s3.keys(bucket, "out/").stream()
                .filter(key -> key.indexOf('/', "out/".length()) < 0 && NumberedLines.visibleParquet(Path.of(key)))
                .toList();
        if (visible.isEmpty()) {
            return 0;
        }
        for (String key : visible) {
            s3.get(bucket, key, files.resolve(key.substring("out/".length())));
        }
        return DuckDb.count(DuckDb.parquet(files));
    }

    /** Kills what is still running. */
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }
}
