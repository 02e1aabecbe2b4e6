package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.deploy.local.LocalCluster;
import dev.parq.deploy.local.LocalCluster.CliResult;

/**
 * {@code ingest} of an object-store prefix on a deploy/local cluster with high availability, as
 * {@code deploy/k8s/ingest-s3.yaml} runs it: the S3 plugin in the cluster's {@code plugins/}, the
 * output and the checkpoints on the S3-compatible test server. While objects keep landing, a
 * TaskManager is SIGKILLed (and another added), then the JobManager (and another started, which
 * finds the job through ZooKeeper); after a stop with a savepoint every line of every object is in
 * the table once. In the long suite only: a cluster with ZooKeeper and two failovers take a minute
 * and a half, and the suite every build runs has the same paths in {@code ObjectIngestS3IT}'s kill
 * and savepoint restarts and in {@code TaskManagerFailoverIT} and {@code HighAvailabilityIT}.
 */
@FaultsProfile
class ObjectFailoverS3IT {

    private static final String TEST = "ObjectFailoverS3IT";

    private static S3Server s3;
    private static LocalCluster cluster;
    private static ClusterJobs jobs;
    @TempDir
    static Path serverRoot;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3Server.start(serverRoot, "landing", "table");
        LocalCluster.Settings settings = ClusterJobs.settings(TEST, 2, 1, Map.of(
                "s3.endpoint", S3Server.ENDPOINT, "s3.path.style.access", "true",
                "s3.access-key", "parq", "s3.secret-key", "parq-secret"));
        // As a user of the image does: Flink's S3 plugin in the plugins directory the cluster names.
        Path plugin = Files.createDirectories(settings.dir().resolve("plugins").resolve("s3-fs-hadoop"));
        try (Stream<Path> jars = Files.list(ClusterJobs.TARGET.resolve("plugins").resolve("s3-fs-hadoop"))) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, plugin.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        cluster = LocalCluster.start(settings.withHighAvailability(ClusterJobs.ZOOKEEPER_LIB)).stopOnExit();
        jobs = new ClusterJobs(cluster);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void aFollowedPrefixLosingATaskManagerAndTheJobManagerCommitsEveryLineOnce() throws Exception {
        NumberedLines numbered = new NumberedLines();
        Uploader uploader = new Uploader(numbered, new Random());
        uploader.upload(3);
        String output = "s3a://table/out";
        String name = "parq ingest to " + output;
        try {
            CliResult run = jobs.flink("run", "-d", ClusterJobs.JOB_JAR.toString(), "ingest", "s3a://landing/app/",
                    "-o", output, "--state", "s3a://table/state", "--schema", NumberedLines.SCHEMA,
                    "--checkpoint-interval", "1s", "--discover-interval", "500ms", "--compaction-interval", "1s",
                    "--parallelism", "2", "-D", "parq.source.split-size=1mb");
            assertEquals(0, run.exitCode(), jobs.failure(run));
            String job = jobs.runningJob(name);
            awaitRows(numbered.last(), job);
            uploader.start();

            Thread.sleep(3000);
            String victim = cluster.taskManagerPids().keySet().iterator().next();
            cluster.kill(victim);
            cluster.addTaskManager();
            awaitRestart(job, 1);

            Thread.sleep(3000);
            String killed = cluster.jobManagerName();
            cluster.kill(killed);
            assertNotEquals(killed, cluster.addJobManager());
            jobs.awaitAfterFailover(job, "RUNNING");
            JsonNode restored = cluster.rest("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            assertTrue(restored.path("id").asLong() > 0, "not restored from a checkpoint: " + restored);

            Thread.sleep(2000);
            uploader.stop();
            awaitRows(numbered.last(), job);
            CliResult stop = jobs.flink("stop", "--savepointPath", "s3a://table/savepoints", job);
            assertEquals(0, stop.exitCode(), jobs.failure(stop));
            jobs.awaitState(job, "FINISHED");
            System.out.printf("%s: %d objects (%d gzip), %d lines%n", TEST, uploader.objects, uploader.gzip,
                    numbered.last());
            Path out = Files.createTempDirectory(dir, "out");
            s3.download("table", "out/", out);
            numbered.assertEachCommittedOnce(out);
        } finally {
            uploader.stop();
            jobs.cancelUnfinished(name);
        }
    }

    /** Waits until the job has recovered from {@code failures} failures and runs again. */
    private static void awaitRestart(String job, int failures) throws Exception {
        long deadline = System.nanoTime() + ClusterJobs.CLI_TIMEOUT.toNanos();
        while (cluster.rest("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries").size() < failures
                || !jobs.stateOf(job).equals("RUNNING")) {
            assertTrue(System.nanoTime() < deadline, "the job did not restart: " + jobs.stateOf(job)
                    + cluster.diagnostics());
            Thread.sleep(200);
        }
    }

    /** Waits until the table's visible objects hold {@code rows} rows, while the job runs. */
    private static void awaitRows(long rows, String job) throws Exception {
        new S3Ingests(s3, dir).awaitRows("table", rows, () -> {
            String state = jobs.stateOf(job);
            assertTrue(state.equals("RUNNING") || state.equals("RESTARTING") || state.equals("CREATED")
                    || state.equals("INITIALIZING"), "the job is " + state + cluster.diagnostics());
        });
    }

    /** Puts objects of numbered lines under {@code landing/app/}, plain and gzip by turns, as a shipper does. */
    private static final class Uploader {
        private final NumberedLines numbered;
        private final Random random;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private CompletableFuture<Void> done;
        private int objects;
        private int gzip;

        Uploader(NumberedLines numbered, Random random) {
            this.numbered = numbered;
            this.random = random;
        }

        void upload(int count) throws Exception {
            for (int i = 0; i < count; i++) {
                byte[] lines = numbered.next(2000 + random.nextInt(3000)).getBytes(StandardCharsets.UTF_8);
                boolean gzipped = objects % 2 == 1;
                Path file = dir.resolve("object-" + objects + (gzipped ? ".ndjson.gz" : ".ndjson"));
                Files.write(file, gzipped ? gzip(lines) : lines);
                s3.put("landing", String.format("app/2026/12/06/%05d-%s", objects, file.getFileName()), file);
                Files.delete(file);
                objects++;
                gzip += gzipped ? 1 : 0;
            }
        }

        void start() {
            done = CompletableFuture.runAsync(() -> {
                try {
                    while (running.get()) {
                        upload(1);
                        Thread.sleep(300);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        void stop() throws Exception {
            running.set(false);
            if (done != null) {
                done.get(60, TimeUnit.SECONDS);
            }
        }

        private static byte[] gzip(byte[] lines) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
                out.write(lines);
            }
            return bytes.toByteArray();
        }
    }
}
