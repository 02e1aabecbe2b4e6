package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.deploy.local.LocalCluster;
import dev.parq.deploy.local.LocalCluster.CliResult;

/**
 * parq's jobs on a deploy/local cluster as its tests see them: submitted with Flink's own CLI,
 * found by name and followed through the JobManager's REST API.
 */
final class ClusterJobs {

    static final Path TARGET = Path.of("target").toAbsolutePath();
    static final Path JOB_JAR = TARGET.resolve("parq-job.jar");
    static final Path LIB = Path.of("..", "deploy", "local", "target", "flink", "lib");
    static final Path ZOOKEEPER_LIB = Path.of("..", "deploy", "local", "target", "zookeeper", "lib");
    private static final Path CLUSTER_CONFIG = Path.of("..", "flink-conf", "cluster", "config.yaml");
    /** Smaller than the shipped configuration's, for a machine that runs the other tests too. */
    private static final Map<String, String> TEST_MEMORY = Map.of(
            "jobmanager.memory.process.size", "1g",
            "taskmanager.memory.process.size", "1536m",
            "taskmanager.memory.task.off-heap.size", "256m");
    static final Duration CLI_TIMEOUT = Duration.ofSeconds(90);

    private final LocalCluster cluster;

    ClusterJobs(LocalCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Starts a deploy/local cluster for the test class {@code test}, its logs left in
     * {@code target/flink-cluster/TEST/log/}; with {@code highAvailability}, a ZooKeeper server too;
     * its start ends with a warm-up job of {@code warmUpMegabytes} (0: none).
     */
    static LocalCluster startCluster(String test, int taskManagers, int slots, boolean highAvailability,
            int warmUpMegabytes) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(JOB_JAR), JOB_JAR + " is built by the package phase");
        LocalCluster.Settings settings = settings(test, taskManagers, slots, Map.of()).withWarmUp(warmUpMegabytes);
        return LocalCluster.start(highAvailability ? settings.withHighAvailability(ZOOKEEPER_LIB) : settings).stopOnExit();
    }

    /**
     * The settings of a cluster for the test class {@code test}: the shipped configuration with
     * {@link #TEST_MEMORY} and {@code overrides}, parq-job.jar on its class path as deploy/local/cluster
     * puts it. Without class-data archives: a test's cluster directory is new with each build, so the
     * archives its stop would record (some 6 CPU-seconds a process) would never be mapped.
     */
    static LocalCluster.Settings settings(String test, int taskManagers, int slots, Map<String, String> overrides) {
        Map<String, String> keys = new HashMap<>(TEST_MEMORY);
        keys.putAll(overrides);
        return new LocalCluster.Settings(LIB, CLUSTER_CONFIG, TARGET.resolve("flink-cluster").resolve(test),
                taskManagers, slots, keys, Duration.ofSeconds(90)).withJar(JOB_JAR).withClassArchives(false);
    }

    /** The client finds the cluster through its configuration directory, as deploy/local/flink's does. */
    CliResult flink(String... args) throws IOException, InterruptedException {
        return cluster.flink(CLI_TIMEOUT, args);
    }

    static String[] command(List<String> flinkArgs, List<String> parqArgs) {
        List<String> command = new ArrayList<>(flinkArgs);
        command.addAll(parqArgs);
        return command.toArray(String[]::new);
    }

    /**
     * parq-job.jar's arguments for an ingest of {@link NumberedLines} from {@code app.log*} in
     * {@code logs} into {@code output}, checkpointed and compacted every second.
     */
    static List<String> ingestOfNumberedLines(Path logs, Path output) {
        return List.of(JOB_JAR.toString(), "ingest", logs.resolve("app.log*").toString(),
                "-o", output.toString(), "--schema", NumberedLines.SCHEMA,
                "--checkpoint-interval", "1s", "--compaction-interval", "1s", "--discover-interval", "200ms");
    }

    /** The name an ingest into {@code output} runs under. */
    static String ingestName(Path output) {
        return "parq ingest to " + output;
    }

    /** Waits until the JobManager has started a job of that name, and returns its id. */
    String runningJob(String name) throws Exception {
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> running = jobsNamed(name).stream()
                    .filter(job -> job.path("state").asText().equals("RUNNING"))
                    .toList();
            if (running.size() == 1) {
                return running.get(0).path("jid").asText();
            }
            assertTrue(running.isEmpty(), "jobs named '" + name + "' running: " + running);
            Thread.sleep(200);
        }
        throw new AssertionError("no job named '" + name + "' running after " + CLI_TIMEOUT + cluster.diagnostics());
    }

    void awaitState(String job, String state) throws Exception {
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        while (!stateOf(job).equals(state)) {
            assertTrue(System.nanoTime() < deadline, "job " + job + " is " + stateOf(job) + ", not " + state);
            Thread.sleep(200);
        }
    }

    /**
     * Waits until a JobManager that has taken over reports the job in {@code state}; until it has
     * recovered the job from ZooKeeper its REST API does not know it. Fails early if the job fails.
     */
    void awaitAfterFailover(String job, String state) throws Exception {
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        String seen = "unknown";
        while (System.nanoTime() < deadline) {
            try {
                seen = stateOf(job);
            } catch (IOException notYetRecovered) {
                seen = notYetRecovered.getMessage();
            }
            if (seen.equals(state)) {
                return;
            }
            assertNotEquals("FAILED", seen, cluster.diagnostics());
            Thread.sleep(200);
        }
        throw new AssertionError("job " + job + " not " + state + " within " + CLI_TIMEOUT + ": " + seen + cluster.diagnostics());
    }

    /** Waits until the ingest has committed {@code rows} rows, failing early if the job stops running. */
    void awaitRows(Path output, long rows, String job) throws Exception {
        NumberedLines.awaitRows(output, rows, () -> assertEquals("RUNNING", stateOf(job), cluster::diagnostics));
    }

    /** Cancels what a failed test left running, so that the other tests find the slots free. */
    void cancelUnfinished(String name) throws Exception {
        for (JsonNode job : jobsNamed(name)) {
            if (!List.of("FINISHED", "CANCELED", "FAILED").contains(job.path("state").asText())) {
                flink("cancel", job.path("jid").asText());
            }
        }
    }

    /** The state the JobManager reports for the one job of that name. */
    String jobState(String name) throws IOException, InterruptedException {
        List<JsonNode> jobs = jobsNamed(name);
        assertFalse(jobs.isEmpty(), "the JobManager ran no job named '" + name + "'");
        assertEquals(1, jobs.size(), "jobs named '" + name + "': " + jobs);
        return jobs.get(0).path("state").asText();
    }

    List<JsonNode> jobsNamed(String name) throws IOException, InterruptedException {
        return StreamSupport.stream(cluster.rest("/jobs/overview").path("jobs").spliterator(), false)
                .filter(job -> job.path("name").asText().equals(name))
                .toList();
    }

    String stateOf(String jobId) throws IOException, InterruptedException {
        return cluster.rest("/jobs/" + jobId).path("state").asText();
    }

    String failure(CliResult run) {
        return "flink exited " + run.exitCode() + "\n--- stdout\n" + run.out() + "\n--- stderr\n" + run.err()
                + cluster.diagnostics();
    }
}
