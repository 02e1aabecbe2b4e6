package dev.parq.job.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.pipeline.ConversionException;

/** Preparing the output is safe to do twice for the same run, and only for it; a finished run is known again. */
class OutputDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void aRunWithoutAFixedJobIdGetsAnEmptyDirectoryAndNoMark() throws Exception {
        Path output = dir.resolve("out");
        assertTrue(OutputDirectory.prepare(flink(output), false, null));
        assertFalse(Files.exists(output.resolve(OutputDirectory.RUN_MARK)));
        Files.writeString(output.resolve("part-0.parquet"), "x");
        ConversionException notEmpty = assertThrows(ConversionException.class,
                () -> OutputDirectory.prepare(flink(output), false, null));
        assertEquals(2, notEmpty.exitCode());
    }

    @Test
    void theSameRunPreparingAgainKeepsWhatItsJobWrote() throws Exception {
        Path output = dir.resolve("out");
        assertTrue(OutputDirectory.prepare(flink(output), true, "job-a"));
        Path written = Files.writeString(output.resolve("part-0.parquet"), "x");
        // main() run again after a JobManager failover, with --overwrite even: nothing is deleted.
        assertFalse(OutputDirectory.prepare(flink(output), true, "job-a"));
        assertTrue(Files.exists(written));
    }

    @Test
    void aFinishedRunIsKnownByItsMarkAndManifest() throws Exception {
        Path output = dir.resolve("out");
        OutputDirectory.prepare(flink(output), false, "job-a");
        assertFalse(OutputDirectory.finishedBy(flink(output), "job-a", ConvertRun.MANIFEST), "still writing");
        Files.writeString(output.resolve(ConvertRun.MANIFEST), "{}");
        assertTrue(OutputDirectory.finishedBy(flink(output), "job-a", ConvertRun.MANIFEST));
        assertFalse(OutputDirectory.finishedBy(flink(output), "job-b", ConvertRun.MANIFEST), "another run's output");
        assertFalse(OutputDirectory.finishedBy(flink(output), null, ConvertRun.MANIFEST), "no fixed job id");
    }

    @Test
    void anotherRunIsRefusedOrReplacesIt() throws Exception {
        Path output = dir.resolve("out");
        OutputDirectory.prepare(flink(output), false, "job-a");
        Path written = Files.writeString(output.resolve("part-0.parquet"), "x");
        assertThrows(ConversionException.class, () -> OutputDirectory.prepare(flink(output), false, "job-b"));
        assertTrue(Files.exists(written));
        assertFalse(OutputDirectory.prepare(flink(output), true, "job-b"));
        assertFalse(Files.exists(written));
        assertEquals("job-b", Files.readString(output.resolve(OutputDirectory.RUN_MARK)));
    }

    private static org.apache.flink.core.fs.Path flink(Path local) {
        return new org.apache.flink.core.fs.Path(local.toString());
    }
}
