package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.apache.flink.configuration.Configuration;

import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

class IngestSettingsTest {

    @Test
    void theCompactionIntervalIsCountedInWholeCheckpointsAtLeastOne() {
        assertEquals(6, checkpointsPerCompaction("10s", "1min"));
        assertEquals(1, checkpointsPerCompaction("1s", "1s"));
        assertEquals(5, checkpointsPerCompaction("1s", "5s"));
        assertEquals(2, checkpointsPerCompaction("10s", "15s"));
        assertEquals(1, checkpointsPerCompaction("30s", "1s"));
    }

    /**
     * Local files are followed as they grow, objects read once each: one ingest does one or the
     * other, and a mix of them is refused at once.
     */
    @Test
    void localFilesAndObjectsInOneIngestAreAUsageError() {
        Configuration config = new Configuration();
        config.set(ParqOptions.INPUTS, List.of("/var/log/app.log", "s3a://logs/app/*.ndjson"));
        ConversionException refused = assertThrows(ConversionException.class, () -> IngestSettings.check(config));
        assertEquals(2, refused.exitCode());
        assertTrue(refused.getMessage().contains("s3a://logs/app/*.ndjson")
                && refused.getMessage().contains("not both"), refused.getMessage());
    }

    private static int checkpointsPerCompaction(String checkpointInterval, String compactionInterval) {
        return new IngestSettings(null, null, null, parse(checkpointInterval), null, null, null,
                parse(compactionInterval)).checkpointsPerCompaction();
    }

    private static Duration parse(String duration) {
        return TimeUtils.parseDuration(duration);
    }
}
