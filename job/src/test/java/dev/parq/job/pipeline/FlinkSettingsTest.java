package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.junit.jupiter.api.Test;

/**
 * The snapshot a user names to restore from is found as a local path, with or without its scheme,
 * or on a file system of its scheme; a conversion leaves ingest's checkpoint settings out.
 */
class FlinkSettingsTest {

    /**
     * A checkpoint interval during a backlog, set in a config.yaml that ingest and convert share,
     * is ingest's: Flink refuses it for a job without a checkpoint interval, so a conversion's
     * configuration leaves it out.
     */
    @Test
    void anIntervalDuringBacklogIsIngestsAndLeftOutOfAConversion() {
        Configuration shared = new Configuration();
        shared.set(CheckpointingOptions.CHECKPOINTING_INTERVAL_DURING_BACKLOG, Duration.ofMinutes(1));
        assertThrows(IllegalArgumentException.class, () -> new CheckpointConfig(shared).getCheckpointIntervalDuringBacklog(),
                "Flink refuses it without a checkpoint interval");
        assertEquals(Long.MAX_VALUE, new CheckpointConfig(FlinkSettings.forBoundedJob(shared))
                .getCheckpointIntervalDuringBacklog(), "none, as checkpoints are off");
        Configuration ingest = FlinkSettings.forUnboundedJob(shared, Duration.ofSeconds(10), new Path("/state"), null);
        assertEquals(60_000, new CheckpointConfig(ingest).getCheckpointIntervalDuringBacklog());
    }

    @Test
    void noRestorePathNamedIsNull() throws ConversionException {
        assertNull(FlinkSettings.requestedRestore(new Configuration()));
    }

    @Test
    void aLocalRestorePathIsTakenWithOrWithoutItsScheme() throws ConversionException {
        assertEquals("/state/savepoints/savepoint-1", requested("/state/savepoints/savepoint-1"));
        assertEquals("/state/savepoints/savepoint-1", requested("file:/state/savepoints/savepoint-1"));
        assertEquals("/state/savepoints/savepoint-1", requested("file:///state/savepoints/savepoint-1"));
    }

    @Test
    void aRestorePathOfASchemeWithoutAFileSystemIsAUsageError() {
        ConversionException e = assertThrows(ConversionException.class, () -> requested("gopher://bucket/savepoint-1"));
        assertEquals(ConversionException.Kind.USAGE, e.kind());
        assertTrue(e.getMessage().startsWith("the snapshot to resume from gopher://bucket/savepoint-1: no file system"
                + " for the scheme 'gopher'"), e.getMessage());
    }

    private static String requested(String path) throws ConversionException {
        Configuration config = new Configuration();
        config.set(StateRecoveryOptions.SAVEPOINT_PATH, path);
        return Storage.display(FlinkSettings.requestedRestore(config));
    }
}
