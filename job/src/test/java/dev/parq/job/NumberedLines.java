package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.parq.testing.DuckDb;

/**
 * Lines {@code {"seq":N,"msg":"line N"}} numbered 1, 2, ... for an ingest to follow, and what of
 * them it has committed: the visible Parquet files of its output, read by DuckDB. Every line once
 * is {@code seq} 1 to {@link #last()}, each one time.
 */
final class NumberedLines {

    static final String SCHEMA = "seq BIGINT, msg STRING";
    static final long WAIT_SECONDS = 90;

    private int seq;

    /** The next {@code count} lines, each with its line feed. */
    String next(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("{\"seq\":").append(++seq).append(",\"msg\":\"line ").append(seq).append("\"}\n");
        }
        return text.toString();
    }

    /**
     * The next {@code count} lines, each with a message of {@code msgBytes} random letters instead of
     * "line N" (when more than zero): text that hardly compresses, for a writer of a given rate in bytes.
     */
    String next(int count, int msgBytes, Random random) {
        if (msgBytes == 0) {
            return next(count);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("{\"seq\":").append(++seq).append(",\"msg\":\"");
            for (int b = 0; b < msgBytes; b++) {
                text.append((char) ('a' + random.nextInt(26)));
            }
            text.append("\"}\n");
        }
        return text.toString();
    }

    /** The number of the next line, for a line the caller writes in parts. */
    int nextSeq() {
        return ++seq;
    }

    /** The number of the last line handed out. */
    int last() {
        return seq;
    }

    /**
     * Waits until the committed files hold {@code rows} rows; {@code stillRunning} fails the wait
     * once the ingest has ended, instead of letting it run out its time.
     */
    static void awaitRows(Path output, long rows, StillRunning stillRunning) throws Exception {
        awaitRows(output, rows, WAIT_SECONDS, stillRunning);
    }

    /** As {@link #awaitRows(Path, long, StillRunning)}, for at most {@code waitSeconds}. */
    static void awaitRows(Path output, long rows, long waitSeconds, StillRunning stillRunning) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        long seen = -1;
        while (System.nanoTime() < deadline) {
            stillRunning.check();
            seen = committedRows(output);
            if (seen == rows) {
                return;
            }
            assertTrue(seen < rows, "more rows than lines: " + seen + " > " + rows);
            Thread.sleep(200);
        }
        throw new AssertionError("after " + waitSeconds + " s " + seen + " rows are committed, not " + rows);
    }

    /** Fails (throws) once the ingest whose rows are awaited has ended. */
    interface StillRunning {
        void check() throws Exception;
    }

    static long committedRows(Path output) throws Exception {
        if (!Files.isDirectory(output)) {
            return 0;
        }
        try (var files = Files.list(output)) {
            if (files.noneMatch(NumberedLines::visibleParquet)) {
                return 0;
            }
        }
        return DuckDb.count(DuckDb.parquet(output));
    }

    /** Whether {@code file} is a Parquet file readers see: one whose name starts with '.' or '_' is hidden. */
    static boolean visibleParquet(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".parquet") && !name.startsWith(".") && !name.startsWith("_");
    }

    /** Checks that what is committed is every line handed out, each exactly once. */
    void assertEachCommittedOnce(Path output) throws Exception {
        assertEachCommittedOnce(output, "true");
    }

    /** As {@link #assertEachCommittedOnce(Path)}, of the committed rows {@code where} holds for. */
    void assertEachCommittedOnce(Path output, String where) throws Exception {
        List<List<Object>> counts = DuckDb.query("SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM "
                + DuckDb.parquet(output) + " WHERE " + where);
        assertEquals(List.of((long) seq, (long) seq, 1L, (long) seq),
                counts.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "rows, distinct, min, max");
    }

    static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * Starts appending lines to {@code log} on another thread, a few at a time and each batch in
     * two writes cut at a random byte (so that a reader finds lines without their end), renaming
     * the log to {@code log.1}, {@code log.2}, ... every {@code rotateEvery} lines, until the
     * returned writer is stopped.
     */
    RotatingWriter writeRotating(Path log, int rotateEvery, Random random) {
        return writeRotating(log, rotateEvery, random, 0);
    }

    /** As {@link #writeRotating(Path, int, Random)}, with messages of {@code msgBytes} random letters. */
    RotatingWriter writeRotating(Path log, int rotateEvery, Random random, int msgBytes) {
        return new RotatingWriter(this, log, rotateEvery, random, msgBytes);
    }

    /** See {@link #writeRotating}. */
    static final class RotatingWriter {
        private final AtomicBoolean writing = new AtomicBoolean(true);
        private final CompletableFuture<Void> done;

        private RotatingWriter(NumberedLines numbered, Path log, int rotateEvery, Random random, int msgBytes) {
            done = CompletableFuture.runAsync(() -> {
                try {
                    int rotations = 0;
                    while (writing.get()) {
                        String text = numbered.next(1 + random.nextInt(40), msgBytes, random);
                        int cut = random.nextInt(text.length());
                        append(log, text.substring(0, cut));
                        append(log, text.substring(cut));
                        if (numbered.last() / rotateEvery > rotations) {
                            rotations++;
                            Files.move(log, log.resolveSibling(log.getFileName() + "." + rotations));
                        }
                        Thread.sleep(5);
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        /** Stops writing and waits for the last write; every line handed out is then in the files. */
        void stop() throws Exception {
            writing.set(false);
            done.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
