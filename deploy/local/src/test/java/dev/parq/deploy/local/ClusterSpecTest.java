package dev.parq.deploy.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.deploy.local.LocalCluster.Application;

class ClusterSpecTest {

    @TempDir
    Path dir;

    @Test
    void anApplicationClusterWithHighAvailabilityReadsBackAsWritten() throws IOException {
        Application application = new Application(dir.resolve("parq-job.jar"), "dev.parq.job.Main",
                List.of("convert", "in dir/*.ndjson", "-o", "", "--schema=@a b.ddl"));
        ClusterSpec written = new ClusterSpec(dir.resolve("flink/lib"), dir.resolve("zookeeper/lib"), application, 3,
                Duration.ofSeconds(90), true);

        ClusterSpec read = roundTrip(written);

        assertEquals(written, read);
        assertTrue(read.highAvailability());
    }

    @Test
    void aSessionClusterWithoutHighAvailabilityReadsBackAsWritten() throws IOException {
        ClusterSpec written = new ClusterSpec(dir.resolve("flink/lib"), null, null, 1, Duration.ofMillis(1500), false);

        ClusterSpec read = roundTrip(written);

        assertEquals(written, read);
        assertFalse(read.highAvailability());
    }

    @Test
    void aDirectoryWhereNoClusterWasStartedIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ClusterSpec.read(dir));
        assertTrue(e.getMessage().contains("no cluster was started in " + dir), e.getMessage());
    }

    private ClusterSpec roundTrip(ClusterSpec spec) throws IOException {
        Files.createDirectories(dir.resolve("run"));
        spec.write(dir.resolve("run"));
        return ClusterSpec.read(dir);
    }
}
