package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.NumberedLines.append;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.deploy.local.LocalCluster.CliResult;
import dev.parq.job.run.ConvertRun;
import dev.parq.testing.DuckDb;

/**
 * A TaskManager SIGKILLed while parq's jobs run on a deploy/local cluster, and a new one added in
 * its place: the batch conversion restarts the regions that ran there and the streaming ingest
 * restarts from its last checkpoint (the cluster's restart strategy and region failover), and the
 * output is still exactly the input, no row lost and none twice.
 */
class TaskManagerFailoverIT {

    /** Large enough that the conversion is still reading when its first subtasks are seen running. */
    private static final long INPUT_BYTES = 400L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final SessionCluster session = new SessionCluster("TaskManagerFailoverIT", 2, 1, false);

    @TempDir
    static Path dir;

    @Test
    void aConversionLosingATaskManagerStillWritesEveryRowOnce() throws Exception {
        Path input = dir.resolve("people.ndjson");
        long lines = People.write(input, INPUT_BYTES);
        Path output = dir.resolve("people-parquet");
        String name = "parq convert to " + output;
        ExecutorService client = Executors.newSingleThreadExecutor();
        try {
            Future<CliResult> run = client.submit(() -> session.jobs().flink("run", ClusterJobs.JOB_JAR.toString(), "convert",
                    input.toString(), "-o", output.toString(), "--schema", People.SCHEMA, "--parallelism", "2",
                    "--split-size", "16mb"));
            String job = session.jobs().runningJob(name);
            String victim = awaitSourceReading(job);
            session.cluster().kill(victim);
            session.cluster().addTaskManager();

            CliResult result = run.get(3 * ClusterJobs.CLI_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(0, result.exitCode(), session.jobs().failure(result));
            assertTrue(failures(job) >= 1, "the job did not notice " + victim + " go\n" + session.cluster().diagnostics());
            JsonNode manifest = JSON.readTree(output.resolve(ConvertRun.MANIFEST).toFile());
            assertEquals(lines, manifest.path("records_in").asLong(), manifest.toString());
            assertEquals(lines, manifest.path("rows_written").asLong(), manifest.toString());
            List<Object> counts = DuckDb.query("SELECT count(*), count(DISTINCT id), sum(id) FROM "
                    + DuckDb.parquet(output)).get(0);
            assertEquals(List.of(lines, lines, lines * (lines + 1) / 2),
                    counts.stream().map(v -> ((Number) v).longValue()).toList(), "rows, distinct ids, sum of ids");
        } finally {
            client.shutdownNow();
            session.jobs().cancelUnfinished(name);
        }
    }

    /**
     * Lines appended and rotated all the while; a TaskManager killed once checkpoints have committed
     * rows, with rows in flight: read since the last checkpoint, or held by the parser. Compacted at
     * each checkpoint, rows are committed seconds after they are read; the long suite keeps the
     * default compaction interval (a minute), as a user runs it, where the kill finds many
     * checkpoints' part files waiting for their compaction and each wait for rows takes that minute.
     */
    @Test
    void anIngestLosingATaskManagerCommitsEveryLineOnce() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("ingest-parquet");
        String name = "parq ingest to " + output;
        NumberedLines numbered = new NumberedLines();
        append(log, numbered.next(500));
        NumberedLines.RotatingWriter writer = null;
        try {
            List<String> run = new ArrayList<>(List.of("run", "-d", ClusterJobs.JOB_JAR.toString(), "ingest",
                    logs.resolve("app.log*").toString(), "-o", output.toString(), "--schema", NumberedLines.SCHEMA,
                    "--checkpoint-interval", "1s", "--discover-interval", "200ms", "--parallelism", "2"));
            if (!FaultsProfile.ON) {
                run.addAll(List.of("--compaction-interval", "1s"));
            }
            CliResult submitted = session.jobs().flink(run.toArray(String[]::new));
            assertEquals(0, submitted.exitCode(), session.jobs().failure(submitted));
            String job = session.jobs().runningJob(name);
            writer = numbered.writeRotating(log, 2000, new Random());
            long deadline = System.nanoTime() + ClusterJobs.CLI_TIMEOUT.toNanos();
            while (NumberedLines.committedRows(output) == 0) {
                assertTrue(System.nanoTime() < deadline, "nothing committed" + session.cluster().diagnostics());
                Thread.sleep(200);
            }
            Thread.sleep(2000);
            String victim = awaitSourceReading(job);
            session.cluster().kill(victim);
            session.cluster().addTaskManager();
            deadline = System.nanoTime() + ClusterJobs.CLI_TIMEOUT.toNanos();
            while (failures(job) < 1 || !session.jobs().stateOf(job).equals("RUNNING")) {
                assertTrue(System.nanoTime() < deadline, "the job did not restart after " + victim + " was killed: "
                        + session.jobs().stateOf(job) + session.cluster().diagnostics());
                Thread.sleep(200);
            }
            Thread.sleep(3000);
            writer.stop();
            writer = null;
            session.jobs().awaitRows(output, numbered.last(), job);
            CliResult stop = session.jobs().flink("stop", "--savepointPath", dir.resolve("savepoints").toString(), job);
            assertEquals(0, stop.exitCode(), session.jobs().failure(stop));
            session.jobs().awaitState(job, "FINISHED");
            numbered.assertEachCommittedOnce(output);
        } finally {
            if (writer != null) {
                writer.stop();
            }
            session.jobs().cancelUnfinished(name);
        }
    }

    /**
     * Waits until every subtask of the job's source chain runs, and returns the TaskManager (its
     * name, as deploy/local starts it) of the first one.
     */
    private static String awaitSourceReading(String job) throws Exception {
        long deadline = System.nanoTime() + ClusterJobs.CLI_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode vertex : session.cluster().rest("/jobs/" + job).path("vertices")) {
                if (vertex.path("name").asText().startsWith("Source: read NDJSON")
                        && vertex.path("tasks").path("RUNNING").asInt() == vertex.path("parallelism").asInt()) {
                    JsonNode subtasks = session.cluster().rest("/jobs/" + job + "/vertices/" + vertex.path("id").asText()
                            + "/taskmanagers").path("taskmanagers");
                    return subtasks.get(0).path("taskmanager-id").asText();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the source of job " + job + " did not run" + session.cluster().diagnostics());
    }

    /** The failures the job recovered from (or not), as its exception history keeps them, also once it ended. */
    private static int failures(String job) throws Exception {
        return session.cluster().rest("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries").size();
    }
}
