package dev.parq.job.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order of a stop's two savepoints, its timeout, and the first savepoint's deletion. */
class SavepointStopTest {

    @TempDir
    Path dir;

    private final Job job = new Job();
    private final List<String> warnings = new ArrayList<>();

    @Test
    void stopsOnceTheAnnouncingSavepointIsTakenAndDeletesIt() throws Exception {
        SavepointStop stop = SavepointStop.begin(job, new org.apache.flink.core.fs.Path(dir.toUri()),
                Duration.ofMinutes(1), warnings::add);
        stop.advance();
        assertNull(job.stop, "stopped before the announcing savepoint was taken");
        Path announced = Files.createDirectories(dir.resolve("savepoint-1"));
        job.announcement.complete(announced.toUri().toString());
        stop.advance();
        assertEquals(dir, Path.of(URI.create(job.stopDir)));
        job.stop.complete(dir.resolve("savepoint-2").toUri().toString());
        assertEquals(dir.resolve("savepoint-2").toUri().toString(), stop.savepoint());
        assertFalse(Files.exists(announced), "the announcing savepoint is left");
        assertEquals(List.of(), warnings);
    }

    @Test
    void stopsAnywayOnceTheTimeoutIsPast() throws Exception {
        SavepointStop stop = SavepointStop.begin(job, new org.apache.flink.core.fs.Path(dir.toUri()),
                Duration.ofMillis(50), warnings::add);
        Thread.sleep(100);
        stop.advance();
        assertTrue(job.stop != null, "no stop after the timeout");
        assertTrue(warnings.get(0).contains("longer than the stop timeout (50 ms)"), warnings.toString());
        job.stop.complete("savepoint-2");
        assertEquals("savepoint-2", stop.savepoint());
    }

    @Test
    void stopsAnywayWhenTheAnnouncingSavepointFails() throws Exception {
        SavepointStop stop = SavepointStop.begin(job, new org.apache.flink.core.fs.Path(dir.toUri()),
                Duration.ofMinutes(1), warnings::add);
        job.announcement.completeExceptionally(new IllegalStateException("declined"));
        stop.advance();
        assertTrue(job.stop != null, "no stop after the savepoint failed");
        assertTrue(warnings.get(0).contains("declined"), warnings.toString());
    }

    /** A job whose savepoints complete when a test says. */
    private static final class Job implements JobClient {
        final CompletableFuture<String> announcement = new CompletableFuture<>();
        CompletableFuture<String> stop;
        String stopDir;

        @Override
        public CompletableFuture<String> triggerSavepoint(String savepointDir, SavepointFormatType formatType) {
            return announcement;
        }

        @Override
        public CompletableFuture<String> stopWithSavepoint(boolean drain, String savepointDir,
                SavepointFormatType formatType) {
            assertFalse(drain, "a drained stop ends the input");
            stopDir = savepointDir;
            stop = new CompletableFuture<>();
            return stop;
        }

        @Override
        public JobID getJobID() {
            return new JobID();
        }

        @Override
        public CompletableFuture<JobStatus> getJobStatus() {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<Void> cancel() {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<Map<String, Object>> getAccumulators() {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
            return new CompletableFuture<>();
        }
    }
}
