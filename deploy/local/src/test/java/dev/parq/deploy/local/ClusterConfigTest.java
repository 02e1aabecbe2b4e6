package dev.parq.deploy.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.deploy.local.LocalCluster.Settings;

class ClusterConfigTest {

    @TempDir
    Path root;
    private ClusterDir dir;
    private Path template;

    @BeforeEach
    void prepare() throws IOException {
        dir = new ClusterDir(root.resolve("cluster"));
        dir.prepare(null);
        template = Files.writeString(root.resolve("template.yaml"), String.join("\n",
                "# rest.port: 1 in a comment stays",
                "rest.port: 8081",
                "taskmanager.numberOfTaskSlots: 8",
                "parq.batch-rows: 4096",
                ""));
    }

    @Test
    void theRunsKeysTakeThePlaceOfTheTemplatesAndTheRestStays() throws IOException {
        ClusterConfig.write(dir, settings(Map.of("parq.batch-rows", "512")), 40001, 40002, Map.of());

        String yaml = Files.readString(dir.conf().resolve(GlobalConfiguration.FLINK_CONF_FILENAME));
        assertTrue(yaml.contains("# rest.port: 1 in a comment stays"), yaml);
        assertFalse(yaml.contains("rest.port: 8081"), yaml);
        Configuration config = ClusterConfig.load(dir);
        assertEquals("40001", config.toMap().get("rest.port"));
        assertEquals("40002", config.toMap().get("jobmanager.rpc.port"));
        assertEquals("2", config.toMap().get("taskmanager.numberOfTaskSlots"));
        assertEquals("512", config.toMap().get("parq.batch-rows"));
        assertEquals(dir.path().resolve("tmp").toString(), config.toMap().get("io.tmp.dirs"));
        assertNull(config.toMap().get("parq.cluster.ship-jar"));
        assertTrue(Files.isRegularFile(dir.conf().resolve("log4j.properties")));
    }

    @Test
    void highAvailabilityKeysAndAJarOnTheClassPathAreWritten() throws IOException {
        ZooKeeperServer zooKeeper = new ZooKeeperServer(dir, root.resolve("zookeeper-lib"), 40003);
        Settings settings = settings(Map.of()).withJar(root.resolve("parq-job.jar"));

        ClusterConfig.write(dir, settings, 40001, 40002, zooKeeper.flinkOptions());

        Configuration config = ClusterConfig.load(dir);
        assertEquals("zookeeper", config.toMap().get("high-availability.type"));
        assertEquals("127.0.0.1:40003", config.toMap().get("high-availability.zookeeper.quorum"));
        assertEquals("false", config.toMap().get("parq.cluster.ship-jar"));
    }

    @Test
    void setReplacesTheLineOfItsKey() throws IOException {
        ClusterConfig.write(dir, settings(Map.of()), 40001, 40002, Map.of());

        ClusterConfig.set(dir, "rest.port", "40009");

        assertEquals("40009", ClusterConfig.load(dir).toMap().get("rest.port"));
        assertEquals("40002", ClusterConfig.load(dir).toMap().get("jobmanager.rpc.port"));
    }

    private Settings settings(Map<String, String> overrides) {
        return new Settings(root.resolve("flink/lib"), template, dir.path(), 1, 2, overrides, Duration.ofSeconds(30));
    }
}
