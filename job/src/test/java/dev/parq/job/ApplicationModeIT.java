package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.ClusterJobs.CLI_TIMEOUT;
import static dev.parq.job.ClusterJobs.JOB_JAR;
import static dev.parq.job.ClusterJobs.ZOOKEEPER_LIB;
import static dev.parq.job.NumberedLines.append;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.deploy.local.LocalCluster;
import dev.parq.job.run.ConvertRun;

/**
 * parq's {@link Main} in Flink's application mode, as the Flink Kubernetes Operator runs a
 * FlinkDeployment: the JobManager ({@code StandaloneApplicationClusterEntryPoint}) runs
 * {@code convert} itself, with ZooKeeper high availability, and stays up once it has finished
 * ({@code execution.shutdown-on-application-finish: false}, as the operator sets it). Its
 * JobManager is SIGKILLed while the conversion runs, and again after it has finished; each time
 * the JobManager that replaces it runs main again. The output must hold every line once, and the
 * {@code _SUCCESS} manifest must be written once and left as it is.
 *
 * <p>Alone: {@code mvn -pl job -am verify -Dit.test=ApplicationModeIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}. The cluster's
 * logs stay in {@code job/target/flink-cluster/ApplicationModeIT/log/}.
 */
class ApplicationModeIT {

    private static final int LINES = 1_500_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the operator sets for an application: the JobManager stays, and remembers its finished job. */
    private static final Map<String, String> OPERATOR_KEYS = Map.of(
            "execution.shutdown-on-application-finish", "false",
            "job-result-store.delete-on-commit", "false");
    private static final String SUCCEEDED = "Application completed SUCCESSFULLY";

    @TempDir
    Path dir;

    private LocalCluster cluster;

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    void mainRunAgainByANewJobManagerNeitherDuplicatesNorRewritesTheOutput() throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines numbered = new NumberedLines();
        for (int written = 0; written < LINES; written += 100_000) {
            append(input, numbered.next(100_000));
        }
        Path output = dir.resolve("parquet");
        LocalCluster.Application convert = new LocalCluster.Application(JOB_JAR, Main.class.getName(),
                List.of("convert", input.toString(), "-o", output.toString(), "--schema", NumberedLines.SCHEMA,
                        "--parallelism", "2", "--split-size", "4mb"));
        cluster = LocalCluster.start(ClusterJobs.settings("ApplicationModeIT", 1, 2, OPERATOR_KEYS)
                .withHighAvailability(ZOOKEEPER_LIB)
                .withApplication(convert))
                .stopOnExit();
        ClusterJobs jobs = new ClusterJobs(cluster);
        String name = "parq convert to " + output;

        String job = jobs.runningJob(name);
        assertTrue(Files.notExists(output.resolve(ConvertRun.MANIFEST)), "killed before the conversion finished");
        cluster.kill(cluster.jobManagerName());
        String second = cluster.addJobManager();
        jobs.awaitAfterFailover(job, "FINISHED");
        awaitLog(second, SUCCEEDED);
        Path manifest = output.resolve(ConvertRun.MANIFEST);
        JsonNode counts = JSON.readTree(manifest.toFile());
        assertEquals(LINES, counts.path("records_in").asLong(), counts.toString());
        assertEquals(LINES, counts.path("rows_written").asLong(), counts.toString());
        numbered.assertEachCommittedOnce(output);
        assertEquals(List.of(job), jobs.jobsNamed(name).stream().map(j -> j.path("jid").asText()).toList(),
                "the one job, under the JobID it was first submitted with");

        byte[] manifestBytes = Files.readAllBytes(manifest);
        BasicFileAttributes manifestFile = Files.readAttributes(manifest, BasicFileAttributes.class);
        cluster.kill(second);
        String third = cluster.addJobManager();
        awaitLog(third, SUCCEEDED);
        // A JobManager knows only the jobs it ran: the job was not submitted again.
        assertEquals(List.of(), jobs.jobsNamed(name), "jobs the third JobManager ran");
        assertArrayEquals(manifestBytes, Files.readAllBytes(manifest), "_SUCCESS was rewritten");
        BasicFileAttributes again = Files.readAttributes(manifest, BasicFileAttributes.class);
        assertEquals(manifestFile.fileKey(), again.fileKey(), "_SUCCESS was replaced");
        assertEquals(manifestFile.lastModifiedTime(), again.lastModifiedTime(), "_SUCCESS was written again");
        numbered.assertEachCommittedOnce(output);
    }

    /** Waits until the log of the JobManager {@code name} holds {@code line}; fails if its application failed. */
    private void awaitLog(String name, String line) throws Exception {
        Path log = cluster.dir().resolve("log").resolve(name + ".log");
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            if (text.contains(line)) {
                return;
            }
            assertTrue(!text.contains("Application failed") && !text.contains("Application FAILED"),
                    name + "'s application failed" + cluster.diagnostics());
            Thread.sleep(200);
        }
        throw new AssertionError(name + " did not log '" + line + "' within " + CLI_TIMEOUT + cluster.diagnostics());
    }
}
