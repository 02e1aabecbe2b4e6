package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.ClusterJobs.CLI_TIMEOUT;
import static dev.parq.job.ClusterJobs.command;
import static dev.parq.job.ClusterJobs.ingestName;
import static dev.parq.job.ClusterJobs.ingestOfNumberedLines;
import static dev.parq.job.NumberedLines.append;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.deploy.local.LocalCluster.CliResult;

/**
 * The JobManager of a {@code cluster start --ha} cluster SIGKILLed while an ingest job runs and a
 * writer appends to the followed log: a JobManager started in its place on other ports finds the
 * job through ZooKeeper and resumes it under the same JobID from its latest completed checkpoint,
 * and after a stop with a savepoint every line written is committed exactly once.
 *
 * <p>Alone: {@code mvn -pl job -am verify -Dit.test=HighAvailabilityIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}. The cluster's
 * logs stay in {@code job/target/flink-cluster/HighAvailabilityIT/log/}.
 */
class HighAvailabilityIT {

    /** The writer's pace: some 1000 lines a second, so that lines arrive before, during and after the failover. */
    private static final int LINES_PER_TICK = 50;
    private static final long TICK_MS = 50;

    @RegisterExtension
    static final SessionCluster session = new SessionCluster("HighAvailabilityIT", 1, 2, true);

    @TempDir
    static Path dir;

    @Test
    void ingestResumesFromItsLatestCheckpointAfterTheJobManagerIsKilled() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("parquet");
        String name = ingestName(output);
        List<String> ingest = ingestOfNumberedLines(logs, output);
        NumberedLines numbered = new NumberedLines();
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        try {
            append(log, numbered.next(1000));
            CliResult run = session.jobs().flink(command(List.of("run", "-d"), ingest));
            assertEquals(0, run.exitCode(), session.jobs().failure(run));
            String job = session.jobs().runningJob(name);
            writer.scheduleAtFixedRate(() -> appendUnchecked(log, numbered.next(LINES_PER_TICK)), 0, TICK_MS,
                    TimeUnit.MILLISECONDS);

            // A checkpoint's rows are visible once compacted, in a file committed by a later checkpoint.
            long checkpointBeforeKill = awaitCompletedCheckpointAfter(job, 0);
            long visibleBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (NumberedLines.committedRows(output) == 0 && System.nanoTime() < visibleBy) {
                checkpointBeforeKill = awaitCompletedCheckpointAfter(job, checkpointBeforeKill);
            }
            assertTrue(NumberedLines.committedRows(output) > 0, "completed checkpoints commit the rows before them");
            String killed = session.cluster().jobManagerName();
            long killedPid = session.cluster().jobManagerPid();
            session.cluster().kill(killed);
            assertFalse(ProcessHandle.of(killedPid).map(ProcessHandle::isAlive).orElse(false), killed + " outlived SIGKILL");

            String replacement = session.cluster().addJobManager();
            assertNotEquals(killed, replacement);
            assertNotEquals(killedPid, session.cluster().jobManagerPid());
            session.jobs().awaitAfterFailover(job, "RUNNING");
            JsonNode restored = session.cluster().rest("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            assertFalse(restored.isMissingNode() || restored.isNull(), "the job was not restored from a checkpoint: "
                    + session.cluster().rest("/jobs/" + job + "/checkpoints"));
            assertFalse(restored.path("is_savepoint").asBoolean(), restored.toString());
            assertTrue(restored.path("id").asLong() >= checkpointBeforeKill,
                    "restored from " + restored + ", older than checkpoint " + checkpointBeforeKill);
            awaitCompletedCheckpointAfter(job, restored.path("id").asLong());

            writer.shutdown();
            assertTrue(writer.awaitTermination(10, TimeUnit.SECONDS), "the writer did not stop");
            session.jobs().awaitRows(output, numbered.last(), job);
            CliResult stop = session.jobs().flink("stop", "--savepointPath", dir.resolve("savepoints").toString(), job);
            assertEquals(0, stop.exitCode(), session.jobs().failure(stop));
            session.jobs().awaitState(job, "FINISHED");
            assertEquals(List.of(job), session.jobs().jobsNamed(name).stream().map(j -> j.path("jid").asText()).toList(),
                    "one job, the one submitted");

            numbered.assertEachCommittedOnce(output);
        } finally {
            writer.shutdownNow();
            session.jobs().cancelUnfinished(name);
        }
    }

    /** A failed write ends the writer's schedule, and the count of lines written then no longer matches. */
    private static void appendUnchecked(Path log, String lines) {
        try {
            append(log, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for a completed checkpoint newer than {@code after} and returns its id. */
    private static long awaitCompletedCheckpointAfter(String job, long after) throws Exception {
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode completed = session.cluster().rest("/jobs/" + job + "/checkpoints").path("latest").path("completed");
            if (completed.path("id").asLong() > after) {
                return completed.path("id").asLong();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no checkpoint of " + job + " after " + after + " completed within " + CLI_TIMEOUT
                + session.cluster().diagnostics());
    }
}
