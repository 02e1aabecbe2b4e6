package dev.parq.deploy.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The {@code deploy/local/cluster} and {@code deploy/local/flink} scripts as a user runs them, each
 * command a process of its own: start, a second start refused, status, add-taskmanager, Flink's CLI
 * against the cluster, a TaskManager killed, stop; with {@code --ha}, ZooKeeper in the status, the
 * JobManager killed and replaced by {@code add-jobmanager} on other ports, Flink's CLI finding it.
 *
 * <p>Alone: {@code mvn -pl deploy/local -am verify -Dit.test=LocalClusterIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}. The cluster's
 * logs stay in {@code deploy/local/target/LocalClusterIT/log/}.
 */
class LocalClusterIT {

    private static final Path CLUSTER = Path.of("cluster").toAbsolutePath();
    private static final Path FLINK = Path.of("flink").toAbsolutePath();
    private static final Path DIR = Path.of("target", "LocalClusterIT").toAbsolutePath();
    private static final Path SHIPPED_CONFIG = Path.of("..", "..", "flink-conf", "cluster", "config.yaml");
    /** Smaller than the shipped configuration's, for a machine that runs the other tests too. */
    private static final Map<String, String> TEST_MEMORY = Map.of(
            "jobmanager.memory.process.size", "1g",
            "taskmanager.memory.process.size", "1g",
            "taskmanager.memory.task.off-heap.size", "128m");
    private static final Pattern ZOOKEEPER_LINE = Pattern.compile("zookeeper pid (\\d+) client 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern JOB_MANAGER_LINE =
            Pattern.compile("jobmanager(?:-(\\d+))? pid (\\d+) rest 127\\.0\\.0\\.1:(\\d+) rpc 127\\.0\\.0\\.1:\\d+");
    private static final Pattern TASK_MANAGER_LINE =
            Pattern.compile("taskmanager-(\\d+) pid (\\d+) rpc 127\\.0\\.0\\.1:\\d+ data 127\\.0\\.0\\.1:\\d+");

    private record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.isBlank() ? List.of() : List.of(out.strip().split("\n"));
        }

        String describe() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    @AfterEach
    void stopWhatATestLeft() throws Exception {
        cluster("stop");
    }

    @Test
    void startStatusAddTaskManagerKillAndStop() throws Exception {
        Run start = cluster("start", "--taskmanagers", "1", "--slots", "1");
        assertEquals(0, start.exitCode(), start.describe());
        assertProcessLines(start, 1);

        Run again = cluster("start");
        assertNotEquals(0, again.exitCode(), again.describe());
        assertTrue(again.err().contains("is running"), again.describe());

        Run status = cluster("status");
        assertEquals(0, status.exitCode(), status.describe());
        List<Long> pids = assertProcessLines(status, 1);
        assertEquals(processPids(start), pids, "status names the processes start started");

        Run added = cluster("add-taskmanager");
        assertEquals(0, added.exitCode(), added.describe());
        pids = assertProcessLines(added, 2);
        Run withTwo = cluster("status");
        assertEquals(0, withTwo.exitCode(), withTwo.describe());
        assertEquals(pids, assertProcessLines(withTwo, 2));

        Run list = flink("list");
        assertEquals(0, list.exitCode(), list.describe());
        assertTrue(list.out().contains("No running jobs"), list.describe());

        long killed = pids.get(2);
        ProcessHandle.of(killed).ifPresent(process -> {
            process.destroyForcibly();
            process.onExit().join();
        });
        Run afterKill = cluster("status");
        assertNotEquals(0, afterKill.exitCode(), "status with a TaskManager killed\n" + afterKill.describe());
        assertTrue(afterKill.out().contains("taskmanager-2 pid " + killed + " ") && afterKill.out().contains("(not running)"),
                afterKill.describe());

        // A replacement is a good add, though the dead one is still on record: exit 0, and it is named.
        Run replaced = cluster("add-taskmanager");
        assertEquals(0, replaced.exitCode(), replaced.describe());
        assertTrue(replaced.out().contains("taskmanager-3 pid "), replaced.describe());
        assertTrue(replaced.err().contains("not running") && replaced.err().contains("taskmanager-2"), replaced.describe());
        pids = new ArrayList<>(pids);
        List<Long> replacedPids = processPids(replaced);
        pids.add(replacedPids.get(replacedPids.size() - 1));

        Run stop = cluster("stop");
        assertEquals(0, stop.exitCode(), stop.describe());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " outlived stop");
        }
        Run stopped = cluster("status");
        assertNotEquals(0, stopped.exitCode(), "status after stop\n" + stopped.describe());
        Run stopAgain = cluster("stop");
        assertEquals(0, stopAgain.exitCode(), "stop with nothing running\n" + stopAgain.describe());
    }

    /**
     * With {@code --ha} the ZooKeeper server serves and is reported first; the JobManager killed,
     * status fails; {@code add-jobmanager} starts {@code jobmanager-2} on another REST port, status
     * is up again, and Flink's CLI reaches it; stop ends ZooKeeper too. In the long suite only
     * ({@code mvn verify -Pfaults}): the job module's {@code HighAvailabilityIT} starts the same
     * cluster through {@link LocalCluster} on every build.
     */
    @Test
    @EnabledIfSystemProperty(named = "parq.test.faults", matches = "true",
            disabledReason = "in the long suite only: mvn verify -Pfaults")
    void highAvailabilityRunsZooKeeperAndReplacesAKilledJobManager() throws Exception {
        Run start = cluster("start", "--ha", "--taskmanagers", "1", "--slots", "1");
        assertEquals(0, start.exitCode(), start.describe());
        List<String> lines = start.lines();
        assertEquals(3, lines.size(), start.describe());
        Matcher zooKeeper = ZOOKEEPER_LINE.matcher(lines.get(0));
        assertTrue(zooKeeper.matches(), start.describe());
        long zooKeeperPid = Long.parseLong(zooKeeper.group(1));
        assertTrue(commandLine(zooKeeperPid).contains("org.apache.zookeeper.server.ZooKeeperServerMain"), start.describe());
        assertTrue(srvr(Integer.parseInt(zooKeeper.group(2))).contains("Mode: standalone"), "ZooKeeper's srvr answer");
        List<Long> pids = assertProcessLines(start, 1, 1);
        Matcher firstJobManager = JOB_MANAGER_LINE.matcher(lines.get(1));
        assertTrue(firstJobManager.matches(), start.describe());
        assertTrue(Files.readString(DIR.resolve("conf").resolve("config.yaml")).contains("high-availability.type: \"zookeeper\""),
                "the cluster's configuration turns high availability on");

        ProcessHandle.of(pids.get(0)).ifPresent(process -> {
            process.destroyForcibly();
            process.onExit().join();
        });
        Run afterKill = cluster("status");
        assertNotEquals(0, afterKill.exitCode(), "status with the JobManager killed\n" + afterKill.describe());
        assertTrue(afterKill.out().contains("jobmanager pid " + pids.get(0) + " ") && afterKill.out().contains("(not running)"),
                afterKill.describe());

        Run replaced = cluster("add-jobmanager");
        assertEquals(0, replaced.exitCode(), replaced.describe());
        List<Long> replacedPids = assertProcessLines(replaced, 1, 1);
        Matcher secondJobManager = JOB_MANAGER_LINE.matcher(replaced.lines().get(1));
        assertTrue(secondJobManager.matches(), replaced.describe());
        assertEquals("2", secondJobManager.group(1), replaced.describe());
        assertNotEquals(firstJobManager.group(3), secondJobManager.group(3), "the new JobManager's REST port");
        assertEquals(pids.get(1), replacedPids.get(1), "the TaskManager stayed");
        assertEquals(zooKeeper.group(0), replaced.lines().get(0), "the same ZooKeeper");

        Run list = flink("list");
        assertEquals(0, list.exitCode(), list.describe());
        assertTrue(list.out().contains("No running jobs"), list.describe());

        Run stop = cluster("stop");
        assertEquals(0, stop.exitCode(), stop.describe());
        for (long pid : List.of(zooKeeperPid, replacedPids.get(0), replacedPids.get(1))) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " outlived stop");
        }
    }

    /** The pids of the JobManager and the TaskManagers, in order; each process alive and what its line says it is. */
    private static List<Long> assertProcessLines(Run run, int taskManagers) {
        return assertProcessLines(run, 0, taskManagers);
    }

    /** As {@link #assertProcessLines(Run, int)}, after {@code skipped} lines (ZooKeeper's). */
    private static List<Long> assertProcessLines(Run run, int skipped, int taskManagers) {
        List<String> lines = run.lines();
        assertEquals(skipped + 1 + taskManagers, lines.size(), run.describe());
        Matcher jobManager = JOB_MANAGER_LINE.matcher(lines.get(skipped));
        assertTrue(jobManager.matches(), run.describe());
        List<Long> pids = new ArrayList<>(List.of(Long.parseLong(jobManager.group(2))));
        assertTrue(commandLine(pids.get(0)).contains("StandaloneSessionClusterEntrypoint"), run.describe());
        for (int number = 1; number <= taskManagers; number++) {
            Matcher taskManager = TASK_MANAGER_LINE.matcher(lines.get(skipped + number));
            assertTrue(taskManager.matches(), run.describe());
            assertEquals(number, Integer.parseInt(taskManager.group(1)), run.describe());
            long pid = Long.parseLong(taskManager.group(2));
            assertTrue(commandLine(pid).contains("TaskManagerRunner"), run.describe());
            pids.add(pid);
        }
        return pids;
    }

    private static List<Long> processPids(Run run) {
        return run.lines().stream()
                .map(line -> Long.parseLong(line.replaceFirst("^\\S+ pid (\\d+) .*$", "$1")))
                .toList();
    }

    /** ZooKeeper's {@code srvr} four-letter command, over a plain socket. */
    private static String srvr(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static String commandLine(long pid) {
        return ProcessHandle.of(pid).flatMap(process -> process.info().commandLine()).orElse("(gone)");
    }

    private static Run cluster(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CLUSTER.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private static Run flink(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(FLINK.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(DIR);
        Path out = Files.createTempFile(DIR.getParent(), "cluster-", ".out");
        Path err = Files.createTempFile(DIR.getParent(), "cluster-", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PARQ_CLUSTER_DIR", DIR.toString());
        builder.environment().put("PARQ_CLUSTER_CONFIG", testConfig().toString());
        Process process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within 3 minutes");
        }
        try {
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    /** The shipped configuration, its memory sizes replaced by {@link #TEST_MEMORY}. */
    private static Path testConfig() throws IOException {
        StringBuilder yaml = new StringBuilder();
        for (String line : Files.readAllLines(SHIPPED_CONFIG, StandardCharsets.UTF_8)) {
            int colon = line.indexOf(':');
            if (line.startsWith("#") || colon < 0 || !TEST_MEMORY.containsKey(line.substring(0, colon))) {
                yaml.append(line).append('\n');
            }
        }
        TEST_MEMORY.forEach((key, value) -> yaml.append(key).append(": ").append(value).append('\n'));
        return Files.writeString(DIR.getParent().resolve("LocalClusterIT-config.yaml"), yaml);
    }
}
