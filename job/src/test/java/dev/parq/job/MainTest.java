package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The application entry returns from a command that succeeds and throws for one that fails: it
 * runs inside a Flink client or a JobManager, whose process it must not end.
 */
class MainTest {

    @Test
    void aFailedCommandThrowsWithItsExitCode() {
        PrintStream err = System.err;
        try {
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            Main.CommandFailedException usage = assertThrows(Main.CommandFailedException.class,
                    () -> Main.main(new String[] {"convert", "missing.ndjson"}));
            assertEquals(2, usage.exitCode());
        } finally {
            System.setErr(err);
        }
    }

    @Test
    void aCommandThatSucceedsReturns() {
        PrintStream out = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertDoesNotThrow(() -> Main.main(new String[] {"--version"}));
        } finally {
            System.setOut(out);
        }
    }
}
