package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/** The embedded cluster started ahead of the job: it runs the job, and it is not left running. */
class JobEnvironmentIT {

    @Test
    void theEarlyClusterRunsTheJobAndStopsWithIt() throws Exception {
        try (JobEnvironment environment = JobEnvironment.begin(new Configuration(), 2)) {
            assertTrue(environment.embedded());
            StreamExecutionEnvironment env = environment.env();
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            assertEquals(2, env.getParallelism());
            waitUntil(environment::clusterReady);

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
        JobEnvironment.EarlyMiniCluster cluster;
        try (JobEnvironment environment = JobEnvironment.begin(new Configuration(), 1)) {
            waitUntil(environment::clusterReady);
            cluster = environment.earlyCluster();
            assertTrue(cluster.isRunning());
        }
        MiniCluster stopped = cluster;
        waitUntil(() -> !stopped.isRunning());
    }

    @Test
    void aJobAskingForAnotherClusterGetsFlinksOwn() throws Exception {
        Configuration config = new Configuration();
        JobEnvironment.EarlyMiniCluster early =
                new JobEnvironment.EarlyMiniCluster(JobEnvironment.clusterConfiguration(config, 1));
        assertSame(early, early.take(JobEnvironment.clusterConfiguration(config, 1)));
        MiniCluster other = early.take(JobEnvironment.clusterConfiguration(config, 4));
        assertNotSame(early, other);
        assertEquals(4, other.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS));
        assertFalse(early.isRunning());
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
