package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;

/**
 * The snapshot a user names to restore from is found as a local path, with or without its scheme,
 * or on a file system of its scheme.
 */
class FlinkSettingsTest {

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
