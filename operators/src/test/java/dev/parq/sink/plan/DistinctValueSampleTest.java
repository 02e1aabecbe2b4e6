package dev.parq.sink.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.IntFunction;

import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** The dictionary choice on a column's first values, for the shapes log columns take. */
class DistinctValueSampleTest {

    private static final int SAMPLE = 8192;
    private static final int PAGE = 1 << 20;
    private static final long ROW_GROUP_ROWS = 250_000;

    private static DistinctValueSample strings(IntFunction<String> valueOfRow) {
        DistinctValueSample sample = new DistinctValueSample(SAMPLE);
        for (int row = 0; !sample.isFull(); row++) {
            sample.write(Binary.fromString(valueOfRow.apply(row)), 0, 0);
        }
        return sample;
    }

    private static DistinctValueSample longs(IntFunction<Long> valueOfRow) {
        DistinctValueSample sample = new DistinctValueSample(SAMPLE);
        for (int row = 0; !sample.isFull(); row++) {
            sample.write(valueOfRow.apply(row), 0, 0);
        }
        return sample;
    }

    @Test
    void aFewThousandRecurringMessagesGetADictionary() {
        // Most of the sample's values are distinct, yet they come from 4,000 templates.
        SplittableRandom random = new SplittableRandom(7);
        DistinctValueSample messages = strings(row -> "request " + random.nextInt(4000) + " served from the edge cache");
        assertTrue(messages.dictionaryPays(PAGE, SAMPLE, ROW_GROUP_ROWS));
    }

    @Test
    void butNotWhenTheRowGroupHasBarelyMoreRowsThanTheyAre() {
        SplittableRandom random = new SplittableRandom(7);
        DistinctValueSample messages = strings(row -> "request " + random.nextInt(4000) + " served from the edge cache");
        assertFalse(messages.dictionaryPays(PAGE, SAMPLE, 12_000));
    }

    @Test
    void norWhenTheirDictionaryOutgrowsItsPage() {
        SplittableRandom random = new SplittableRandom(7);
        String padding = "x".repeat(400);
        DistinctValueSample messages = strings(row -> padding + random.nextInt(4000));
        assertFalse(messages.dictionaryPays(PAGE, SAMPLE, ROW_GROUP_ROWS));
    }

    @Test
    void uniqueValuesGetNone() {
        DistinctValueSample traceIds = strings(row -> Long.toHexString(row * 0x9E3779B97F4A7C15L));
        assertFalse(traceIds.dictionaryPays(PAGE, SAMPLE, ROW_GROUP_ROWS));
    }

    @Test
    void valuesInSequenceGetNoneEvenWhenNeighboursRepeat() {
        // Timestamps of a busy log: four lines a millisecond. Each value recurs, but only next to
        // itself, so that a row group holds ever new ones.
        DistinctValueSample timestamps = longs(row -> 1_700_000_000_000L + row / 4);
        assertFalse(timestamps.dictionaryPays(PAGE, SAMPLE, ROW_GROUP_ROWS));
    }

    @Test
    void aHandfulOfLevelsGetsOne() {
        String[] levels = {"INFO", "WARN", "ERROR", "DEBUG"};
        DistinctValueSample level = strings(row -> levels[(row * 7) % 4]);
        assertTrue(level.dictionaryPays(PAGE, SAMPLE, ROW_GROUP_ROWS));
    }
}
