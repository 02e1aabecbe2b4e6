package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A parq process that is to fail on a store that fails: how long it took to give up, and what it
 * said. A failure is one line, {@code parq: ...}, never a stack trace.
 */
record StoreFailure(int exitCode, double seconds, String stderr) {

    /** The longest a run may take to give up on a store that fails, whatever the fault. */
    static final long BOUND_SECONDS = 90;

    /** Runs parq with {@code args} through {@code parq} to its end. */
    static StoreFailure of(S3Ingests parq, String... args) throws Exception {
        long started = System.nanoTime();
        Process process = parq.start(args);
        assertTrue(process.waitFor(2 * BOUND_SECONDS, TimeUnit.SECONDS), "parq did not give up: " + parq.stderr());
        return new StoreFailure(process.exitValue(), (System.nanoTime() - started) / 1e9, parq.stderr());
    }

    /** Checks exit code 1 within the bound, and one line that holds each of {@code words}. */
    void assertOneLineNaming(String... words) {
        assertEquals(1, exitCode, stderr);
        assertTrue(seconds < BOUND_SECONDS, "took " + seconds + " s to give up: " + stderr);
        List<String> lines = stderr.lines().filter(line -> !line.isBlank()).toList();
        assertEquals(1, lines.size(), "one line, not: " + stderr);
        assertTrue(lines.get(0).startsWith("parq: "), stderr);
        for (String word : words) {
            assertTrue(lines.get(0).contains(word), "no '" + word + "' in: " + lines.get(0));
        }
    }
}
