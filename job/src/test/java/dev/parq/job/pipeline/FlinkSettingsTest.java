package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;

/** The snapshot a user names to restore from is found as a local path, with or without its scheme. */
class FlinkSettingsTest {

    @Test
    void noRestorePathNamedIsNull() throws ConversionException {
        assertNull(FlinkSettings.requestedRestore(new Configuration()));
    }

    @Test
    void aLocalRestorePathIsTakenWithOrWithoutItsScheme() throws ConversionException {
        assertEquals(Path.of("/state/savepoints/savepoint-1"), requested("/state/savepoints/savepoint-1"));
        assertEquals(Path.of("/state/savepoints/savepoint-1"), requested("file:/state/savepoints/savepoint-1"));
        assertEquals(Path.of("/state/savepoints/savepoint-1"), requested("file:///state/savepoints/savepoint-1"));
    }

    @Test
    void aRestorePathElsewhereIsAUsageError() {
        ConversionException e = assertThrows(ConversionException.class, () -> requested("s3://bucket/savepoint-1"));
        assertEquals(ConversionException.Kind.USAGE, e.kind());
        assertEquals("cannot resume from s3://bucket/savepoint-1: an ingest keeps its state on the local file system",
                e.getMessage());
    }

    private static Path requested(String path) throws ConversionException {
        Configuration config = new Configuration();
        config.set(StateRecoveryOptions.SAVEPOINT_PATH, path);
        return FlinkSettings.requestedRestore(config);
    }
}
