package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.ClusterJobs.CLI_TIMEOUT;
import static dev.parq.job.ClusterJobs.JOB_JAR;
import static dev.parq.job.ClusterJobs.LIB;
import static dev.parq.job.ClusterJobs.command;
import static dev.parq.job.ClusterJobs.ingestName;
import static dev.parq.job.ClusterJobs.ingestOfNumberedLines;
import static dev.parq.job.NumberedLines.append;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.deploy.local.LocalCluster;
import dev.parq.deploy.local.LocalCluster.CliResult;
import dev.parq.job.cluster.SmokeJob;
import dev.parq.testing.DuckDb;

import dev.parq.job.run.ConvertRun;

/**
 * {@code flink run parq-job.jar convert ...} as a user runs it: Flink's own CLI submits the thin
 * jar to a standalone cluster (deploy/local's, two TaskManagers of one slot) whose JobManager and
 * TaskManagers are separate JVMs with nothing of parq on their class path, so everything the job needs must travel in parq-job.jar. {@code ingest}
 * runs there as a streaming job that the client submits and leaves ({@code flink run -d}), or waits
 * for; it is cancelled, stopped with {@code flink stop} and resumed, with or without {@code -s},
 * and commits every line exactly once.
 *
 * <p>Alone: {@code mvn -pl job -am verify -Dit.test=FlinkRunIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}. The cluster's
 * logs stay in {@code job/target/flink-cluster/FlinkRunIT/log/}.
 */
class FlinkRunIT {

    private static final int TASK_MANAGERS = 2;
    /** Jar name prefixes of what parq-job.jar must bring itself. */
    private static final List<String> PARQ_JAR_LIBRARIES =
            List.of("parq-", "flink-parquet", "parquet-", "hadoop-", "arrow-", "picocli");
    private static final long INPUT_BYTES = 20L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SAVEPOINT = Pattern.compile("Savepoint completed\\. Path: (\\S+)");

    /** Small, for the suite's time: one block of the sample (about 3.5 MB). */
    private static final int WARM_UP_MEGABYTES = 3;

    @RegisterExtension
    static final SessionCluster session = new SessionCluster("FlinkRunIT", TASK_MANAGERS, 1, false, WARM_UP_MEGABYTES);

    @TempDir
    static Path dir;

    @Test
    void jobManagerAndTaskManagersAreSeparateProcesses() throws IOException {
        assertTrue(session.cluster().isRunning(), session.cluster().diagnostics());
        Set<Long> pids = new TreeSet<>(session.cluster().taskManagerPids().values());
        pids.add(session.cluster().jobManagerPid());
        pids.add(ProcessHandle.current().pid());
        assertEquals(TASK_MANAGERS + 2, pids.size(), "pids " + pids);
        String jobManager = commandLine(session.cluster().jobManagerPid());
        assertTrue(jobManager.contains("StandaloneSessionClusterEntrypoint"), jobManager);
        for (long taskManagerPid : session.cluster().taskManagerPids().values()) {
            String taskManager = commandLine(taskManagerPid);
            assertTrue(taskManager.contains("TaskManagerRunner"), taskManager);
        }
    }

    /**
     * The start ended with a warm-up job: a parq convert that ran a subtask on each TaskManager,
     * finished, and left neither its input nor its output in the cluster's directory.
     */
    @Test
    void theStartRanAWarmUpJobOnEveryTaskManager() throws Exception {
        LocalCluster.WarmUp warmUp = session.cluster().warmUp().orElseThrow(() -> new AssertionError("no warm-up job ran"));
        assertTrue(warmUp.bytes() >= WARM_UP_MEGABYTES * 1_000_000L, warmUp.toString());
        JsonNode jobs = session.cluster().rest("/jobs/overview");
        JsonNode job = StreamSupport.stream(jobs.path("jobs").spliterator(), false)
                .filter(overview -> overview.path("name").asText().startsWith("parq convert to ")
                        && overview.path("name").asText().contains("warm-up"))
                .findFirst().orElseThrow(() -> new AssertionError("no warm-up job in " + jobs));
        assertEquals("FINISHED", job.path("state").asText(), job.toString());
        String jobId = job.path("jid").asText();
        Set<String> taskManagers = new TreeSet<>();
        for (JsonNode vertex : session.cluster().rest("/jobs/" + jobId).path("vertices")) {
            for (JsonNode taskManager : session.cluster().rest("/jobs/" + jobId + "/vertices/" + vertex.path("id").asText()
                    + "/taskmanagers").path("taskmanagers")) {
                taskManagers.add(taskManager.path("taskmanager-id").asText());
            }
        }
        assertEquals(session.cluster().taskManagerPids().keySet(), taskManagers, "the TaskManagers the warm-up job ran on");
        assertFalse(Files.exists(ClusterJobs.TARGET.resolve("flink-cluster").resolve("FlinkRunIT").resolve("tmp").resolve("warm-up")),
                "the warm-up's input and output are deleted");
    }

    @Test
    void clusterClassPathHoldsNothingOfParq() throws IOException {
        try (Stream<Path> jars = Files.list(ClusterJobs.LIB)) {
            List<String> bundled = jars.map(jar -> jar.getFileName().toString())
                    .filter(name -> PARQ_JAR_LIBRARIES.stream().anyMatch(name::startsWith))
                    .toList();
            assertEquals(List.of(), bundled, "these belong in parq-job.jar, not in the cluster's lib/");
        }
    }

    @Test
    void runsAPlainFlinkJob() throws Exception {
        CliResult run = session.jobs().flink("run", SmokeJob.writeJar(dir.resolve("smoke.jar")).toString());
        assertEquals(0, run.exitCode(), session.jobs().failure(run));
        assertTrue(run.out().contains("sum 500500"), session.jobs().failure(run));
        assertEquals("FINISHED", session.jobs().jobState(SmokeJob.NAME), session.jobs().failure(run));
    }

    /**
     * A cluster stopped after a job leaves class-data archives of its JobManager and TaskManager in
     * {@code DIR/cds/}, and the next cluster of that directory maps them (each JVM's memory maps name
     * its archive) and runs a job. Two cluster starts and the archives' recording: the long suite only.
     */
    @Test
    @FaultsProfile
    void aClusterStartedAgainInItsDirectoryMapsTheArchivesTheFirstRecorded() throws Exception {
        LocalCluster.Settings settings = ClusterJobs.settings("FlinkRunIT-cds", 1, 1, Map.of()).withClassArchives(true);
        Path archives = settings.dir().resolve("cds");
        deleteArchives(archives);
        Path smoke = SmokeJob.writeJar(dir.resolve("smoke-cds.jar"));
        LocalCluster first = LocalCluster.start(settings).stopOnExit();
        try {
            assertSmokeJobRuns(first, smoke);
        } finally {
            first.stop();
        }
        List<Path> recorded = archivesIn(archives);
        assertEquals(List.of("jobmanager-", "taskmanager-"),
                recorded.stream().map(archive -> archive.getFileName().toString().replaceAll("jdk.*", "")).toList(),
                "archives recorded by the first cluster: " + recorded);

        LocalCluster second = LocalCluster.start(settings).stopOnExit();
        try {
            assertTrue(memoryMaps(second.jobManagerPid()).contains(recorded.get(0).toString()),
                    "the second JobManager maps " + recorded.get(0));
            long taskManager = second.taskManagerPids().values().iterator().next();
            assertTrue(memoryMaps(taskManager).contains(recorded.get(1).toString()),
                    "the second TaskManager maps " + recorded.get(1));
            assertSmokeJobRuns(second, smoke);
        } finally {
            second.stop();
        }
        assertEquals(recorded, archivesIn(archives), "a cluster that mapped its archives records none");
    }

    private static void assertSmokeJobRuns(LocalCluster cluster, Path jar) throws Exception {
        ClusterJobs jobs = new ClusterJobs(cluster);
        CliResult run = jobs.flink("run", jar.toString());
        assertEquals(0, run.exitCode(), jobs.failure(run));
        assertTrue(run.out().contains("sum 500500"), jobs.failure(run));
    }

    private static List<Path> archivesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jsa")).sorted().toList();
        }
    }

    private static void deleteArchives(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static String memoryMaps(long pid) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "maps"), StandardCharsets.UTF_8);
    }

    @Test
    void flinkRunShowsParqUsage() throws Exception {
        CliResult help = session.jobs().flink("run", ClusterJobs.JOB_JAR.toString(), "--help");
        assertEquals(0, help.exitCode(), session.jobs().failure(help));
        assertTrue(help.out().contains("convert") && help.out().contains("schema"), session.jobs().failure(help));
    }

    @Test
    void convertsOnTheCluster() throws Exception {
        Path input = dir.resolve("people.ndjson");
        long lines = People.write(input, INPUT_BYTES);
        Path output = dir.resolve("people-parquet");

        CliResult run = session.jobs().flink("run", ClusterJobs.JOB_JAR.toString(), "convert", input.toString(), "-o", output.toString(),
                "--schema", People.SCHEMA, "--parallelism", "2", "--split-size", "1mb");

        assertEquals(0, run.exitCode(), session.jobs().failure(run));
        assertEquals("FINISHED", session.jobs().jobState("parq convert to " + output), session.jobs().failure(run));
        JsonNode manifest = JSON.readTree(output.resolve(ConvertRun.MANIFEST).toFile());
        assertEquals(lines, manifest.path("records_in").asLong(), manifest.toString());
        assertEquals(lines, manifest.path("rows_written").asLong(), manifest.toString());
        assertEquals(0, manifest.path("rejected").asLong(), manifest.toString());
        List<Object> countAndSum = DuckDb.query("SELECT count(*), sum(id) FROM " + DuckDb.parquet(output)).get(0);
        assertEquals(lines, ((Number) countAndSum.get(0)).longValue());
        assertEquals(lines * (lines + 1) / 2, ((Number) countAndSum.get(1)).longValue());
        assertEquals(session.cluster().taskManagerPids().keySet(), taskManagersThatRanTheSource("parq convert to " + output));
    }

    /**
     * The TaskManagers (by id) that ran subtasks of the job's source chain (read, parse, write),
     * where the data flows: with one slot each, a parallelism of 2 must reach both. (The committers
     * run later in their own pipelined regions and may reuse one TaskManager's slot.)
     */
    private static Set<String> taskManagersThatRanTheSource(String name) throws Exception {
        String job = session.jobs().jobsNamed(name).get(0).path("jid").asText();
        for (JsonNode vertex : session.cluster().rest("/jobs/" + job).path("vertices")) {
            if (vertex.path("name").asText().startsWith("Source: read NDJSON")) {
                assertEquals(TASK_MANAGERS, vertex.path("parallelism").asInt(), vertex.toString());
                JsonNode subtasks = session.cluster().rest("/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/taskmanagers");
                Set<String> ranIt = new TreeSet<>();
                subtasks.path("taskmanagers").forEach(taskManager -> ranIt.add(taskManager.path("taskmanager-id").asText()));
                return ranIt;
            }
        }
        throw new AssertionError("job " + job + " has no source vertex: " + session.cluster().rest("/jobs/" + job));
    }

    @Test
    void badLineFailsTheRunNamingFileAndOffset() throws Exception {
        Path input = dir.resolve("with-bad-line.ndjson");
        long badLineOffset;
        try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            StringBuilder good = new StringBuilder();
            for (long id = 1; id <= 1000; id++) {
                good.append(People.line(id));
            }
            out.write(good.toString());
            badLineOffset = good.toString().getBytes(StandardCharsets.UTF_8).length;
            out.write("{\"id\": 1001, \"name\": \"broken\", \"score\": oops}\n");
            out.write(People.line(1002));
        }

        Path output = dir.resolve("bad-parquet");
        CliResult run = session.jobs().flink("run", ClusterJobs.JOB_JAR.toString(), "convert", input.toString(),
                "-o", output.toString(), "--schema", People.SCHEMA, "--on-error", "fail");

        assertNotEquals(0, run.exitCode(), session.jobs().failure(run));
        assertEquals("FAILED", session.jobs().jobState("parq convert to " + output), session.jobs().failure(run));
        assertTrue((run.out() + run.err()).contains(input + ": bad line at byte " + badLineOffset), session.jobs().failure(run));
        // The job has ended on the cluster, so the client removes the directory it created for it.
        assertFalse(Files.exists(output), "the failed run left " + output + " behind");
        assertTrue(session.cluster().isRunning(), "a failed job must not take the cluster down\n" + session.cluster().diagnostics());
    }

    /**
     * Detached runs, cancelled and then resumed without {@code -s} from the state directory's newest
     * checkpoint; a rename rotation; {@code flink stop} with a savepoint elsewhere, lines written
     * while stopped, and an attached run resumed from that savepoint with {@code -s} although the
     * state directory still holds the cancelled run's older checkpoints, compacting at most every
     * minute; stopped again with {@code flink savepoint} and {@code flink stop} before any of its
     * rows was compacted, its client exits 0 and every line is visible once.
     */
    @Test
    void ingestsThroughCancelStopAndResumeExactlyOnce() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("ingest-logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("ingest-parquet");
        String name = ClusterJobs.ingestName(output);
        List<String> ingest = ingestOfNumberedLines(logs, output);
        NumberedLines numbered = new NumberedLines();
        ExecutorService attachedClient = Executors.newSingleThreadExecutor();
        try {
            append(log, numbered.next(2000));
            CliResult first = session.jobs().flink(ClusterJobs.command(List.of("run", "-d"), ingest));
            assertEquals(0, first.exitCode(), session.jobs().failure(first));
            assertTrue(first.err().contains("parq: submitted"), session.jobs().failure(first));
            String job = session.jobs().runningJob(name);
            session.jobs().awaitRows(output, numbered.last(), job);
            append(log, numbered.next(300));
            session.jobs().awaitRows(output, numbered.last(), job);
            CliResult cancel = session.jobs().flink("cancel", job);
            assertEquals(0, cancel.exitCode(), session.jobs().failure(cancel));
            session.jobs().awaitState(job, "CANCELED");

            append(log, numbered.next(200));
            CliResult second = session.jobs().flink(ClusterJobs.command(List.of("run", "-d"), ingest));
            assertEquals(0, second.exitCode(), session.jobs().failure(second));
            Path cancelledCheckpoints = output.resolve("_state").resolve("checkpoints").resolve(job);
            assertTrue(second.err().contains("resuming from " + cancelledCheckpoints), session.jobs().failure(second));
            job = session.jobs().runningJob(name);
            session.jobs().awaitRows(output, numbered.last(), job);
            append(log, numbered.next(300));
            Path rotated = Files.move(log, logs.resolve("app.log.1"));
            append(rotated, numbered.next(100));
            append(log, numbered.next(200));
            session.jobs().awaitRows(output, numbered.last(), job);
            CliResult stop = session.jobs().flink("stop", "--savepointPath", dir.resolve("ingest-savepoints").toString(), job);
            assertEquals(0, stop.exitCode(), session.jobs().failure(stop));
            Matcher savepoint = SAVEPOINT.matcher(stop.out());
            assertTrue(savepoint.find(), session.jobs().failure(stop));
            session.jobs().awaitState(job, "FINISHED");

            append(rotated, numbered.next(100));
            append(log, numbered.next(400));
            // Compacting at most every minute, this run's rows are visible at its stop only if the stop
            // compacts them: a savepoint just before it has it do so.
            List<String> compactingLate = new ArrayList<>(ingest);
            compactingLate.set(compactingLate.indexOf("--compaction-interval") + 1, "1min");
            Set<Path> stoppedWith = partFiles(output);
            String[] resume = ClusterJobs.command(List.of("run", "-s", savepoint.group(1)), compactingLate);
            Future<CliResult> third = attachedClient.submit(() -> session.jobs().flink(resume));
            job = session.jobs().runningJob(name);
            awaitNewPartFile(output, stoppedWith);
            Thread.sleep(2000);
            // Without a directory the stop would want the cluster's configured one, not the job's;
            // into the state directory's savepoints, a later run without -s finds it.
            Path stateSavepoints = output.resolve("_state").resolve("savepoints");
            CliResult announce = session.jobs().flink("savepoint", job, stateSavepoints.toString());
            assertEquals(0, announce.exitCode(), session.jobs().failure(announce));
            CliResult stopAgain = session.jobs().flink("stop", "--savepointPath", stateSavepoints.toString(), job);
            assertEquals(0, stopAgain.exitCode(), session.jobs().failure(stopAgain));
            CliResult attached = third.get(ClusterJobs.CLI_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(0, attached.exitCode(), session.jobs().failure(attached));
            String resumedFrom = Path.of(URI.create(savepoint.group(1))).toString();
            assertTrue(attached.err().contains("resuming from " + resumedFrom), session.jobs().failure(attached));
            assertTrue(attached.err().contains("parq: stopped"), session.jobs().failure(attached));
            // The client has the job's result; the REST view of its state follows within moments.
            session.jobs().awaitState(job, "FINISHED");

            numbered.assertEachCommittedOnce(output);
        } finally {
            attachedClient.shutdownNow();
            session.jobs().cancelUnfinished(name);
        }
    }

    /**
     * A backlog (two files of lines there at the start, each more than a split) with checkpoints and
     * compaction every ten minutes: the source asks the JobManager's REST API for a checkpoint once
     * it has read the backlog, so every line is committed within the wait, not ten minutes later.
     */
    @Test
    void aBacklogIsCommittedOnceReadNotAtTheNextPeriodicCheckpoint() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("backlog-logs"));
        Path output = dir.resolve("backlog-parquet");
        String name = ClusterJobs.ingestName(output);
        NumberedLines numbered = new NumberedLines();
        append(logs.resolve("app.log.1"), numbered.next(50_000));
        append(logs.resolve("app.log"), numbered.next(50_000));
        List<String> ingest = new ArrayList<>(ingestOfNumberedLines(logs, output));
        ingest.set(ingest.indexOf("--checkpoint-interval") + 1, "10min");
        ingest.set(ingest.indexOf("--compaction-interval") + 1, "10min");
        ingest.addAll(List.of("--split-size", "1mb"));
        try {
            CliResult run = session.jobs().flink(ClusterJobs.command(List.of("run", "-d"), ingest));
            assertEquals(0, run.exitCode(), session.jobs().failure(run));
            String job = session.jobs().runningJob(name);
            session.jobs().awaitRows(output, numbered.last(), job);
            numbered.assertEachCommittedOnce(output);
        } finally {
            session.jobs().cancelUnfinished(name);
        }
    }

    /** The part files of checkpoints in {@code output}, hidden until their compaction. */
    private static Set<Path> partFiles(Path output) throws IOException {
        try (Stream<Path> files = Files.list(output)) {
            return files.filter(file -> file.getFileName().toString().startsWith("..part-")).collect(Collectors.toSet());
        }
    }

    /** Waits until a checkpoint has written a part file into {@code output} that is not one of {@code before}. */
    private static void awaitNewPartFile(Path output, Set<Path> before) throws Exception {
        long deadline = System.nanoTime() + CLI_TIMEOUT.toNanos();
        while (before.containsAll(partFiles(output))) {
            assertTrue(System.nanoTime() < deadline, "no new part file in " + output);
            Thread.sleep(50);
        }
    }

    private static String commandLine(long pid) {
        return ProcessHandle.of(pid).flatMap(process -> process.info().commandLine()).orElse("(gone)");
    }
}
