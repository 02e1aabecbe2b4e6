package dev.parq.job.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/** The embedded cluster started ahead of the job: it runs the job, and it is not left running. */
class JobEnvironmentIT {

    @Test
    void theEarlyClusterRunsTheJobAndStopsWithIt() throws Exception {
        try (JobEnvironment environment = JobEnvironment.begin(parallelism(2))) {
            assertNotNull(environment.earlyCluster(), "embedded: a cluster started ahead of the job");
            StreamExecutionEnvironment env = environment.env();
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            assertEquals(2, env.getParallelism());
            waitUntil(environment.earlyCluster()::isRunning);

            DataStream<Long> doubled = env.fromSequence(1, 1000).map(x -> 2 * x);
            List<Long> out = new ArrayList<>();
            try (CloseableIterator<Long> results = doubled.executeAndCollect()) {
                results.forEachRemaining(out::add);
            }
            assertEquals(1000, out.size());
            assertEquals(1001L * 1000, out.stream().mapToLong(Long::longValue).sum());
            assertTrue(environment.earlyCluster().taken(), "the job ran on the cluster started ahead of it");
            MiniCluster cluster = environment.earlyCluster();
            waitUntil(() -> !cluster.isRunning());
        }
    }

    @Test
    void aClusterNoJobTookIsShutDown() throws Exception {
        EarlyMiniCluster cluster;
        try (JobEnvironment environment = JobEnvironment.begin(parallelism(1))) {
            waitUntil(environment.earlyCluster()::isRunning);
            cluster = environment.earlyCluster();
            assertTrue(cluster.isRunning());
        }
        MiniCluster stopped = cluster;
        waitUntil(() -> !stopped.isRunning());
    }

    /** Main starts the cluster before reading the command line; the job takes it if it fits. */
    @Test
    void theJobTakesTheClusterStartedBeforeTheCommandLineWasRead() throws Exception {
        EarlyMiniCluster prestarted = JobEnvironment.prestart(parallelism(2));
        assertNotNull(prestarted);
        Configuration withParqKeys = parallelism(2);
        withParqKeys.setString("parq.output", "/tmp/anywhere");
        try (JobEnvironment environment = JobEnvironment.begin(withParqKeys)) {
            assertSame(prestarted, environment.earlyCluster());
        }
        waitUntil(() -> !prestarted.isRunning());
    }

    @Test
    void aClusterStartedForAnotherParallelismIsShutDown() throws Exception {
        EarlyMiniCluster prestarted = JobEnvironment.prestart(parallelism(1));
        try (JobEnvironment environment = JobEnvironment.begin(parallelism(2))) {
            assertNotSame(prestarted, environment.earlyCluster());
            assertEquals(2, environment.earlyCluster().getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS));
            waitUntil(() -> !prestarted.isRunning());
            assertFalse(prestarted.taken());
        }
    }

    @Test
    void aJobAskingForAnotherClusterGetsFlinksOwn() throws Exception {
        Configuration config = new Configuration();
        EarlyMiniCluster early =
                new EarlyMiniCluster(JobEnvironment.clusterConfiguration(config, 1));
        assertSame(early, early.take(JobEnvironment.clusterConfiguration(config, 1)));
        MiniCluster other = early.take(JobEnvironment.clusterConfiguration(config, 4));
        assertNotSame(early, other);
        assertEquals(4, other.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS));
        assertFalse(early.isRunning());
    }

    /**
     * The cluster's servers (the BLOB server, the REST endpoint) listen, but on loopback only: a
     * conversion on a laptop opens no port to the network.
     */
    @Test
    void theEarlyClusterListensOnLoopbackOnly() throws Exception {
        Map<String, String> before = listening();
        try (JobEnvironment environment = JobEnvironment.begin(parallelism(1))) {
            waitUntil(environment.earlyCluster()::isRunning);
            Map<String, String> opened = new HashMap<>(listening());
            opened.keySet().removeAll(before.keySet());
            assertTrue(opened.size() >= 2, "the BLOB server and the REST endpoint listen: " + opened);
            opened.forEach((port, address) -> assertTrue(LOOPBACK.contains(address),
                    "port " + Integer.parseInt(port, 16) + " listens on " + address + ", not loopback"));
        }
    }

    /** /proc's hex spellings of 127.0.0.1, ::1 and ::ffff:127.0.0.1. */
    private static final Set<String> LOOPBACK = Set.of(
            "0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F");

    /** The TCP sockets listening in this network namespace: hex port to hex address. */
    private static Map<String, String> listening() throws Exception {
        Map<String, String> ports = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                if (fields[3].equals("0A")) {
                    String[] local = fields[1].split(":");
                    ports.put(local[1], local[0]);
                }
            }
        }
        return ports;
    }

    private static Configuration parallelism(int parallelism) {
        return new Configuration().set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out");
            }
            Thread.sleep(20);
        }
    }
}
