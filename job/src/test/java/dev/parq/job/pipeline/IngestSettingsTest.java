package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

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

    private static int checkpointsPerCompaction(String checkpointInterval, String compactionInterval) {
        return new IngestSettings(null, null, null, parse(checkpointInterval), null, null, null,
                parse(compactionInterval)).checkpointsPerCompaction();
    }

    private static Duration parse(String duration) {
        return TimeUtils.parseDuration(duration);
    }
}
