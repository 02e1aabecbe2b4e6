package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** Every value is checked once, as a usage error naming its key and what the key accepts. */
class ParqOptionsTest {

    @Test
    void theDefaultsAreAccepted() {
        assertDoesNotThrow(() -> ParqOptions.validate(new Configuration()));
    }

    @Test
    void aValueOutOfRangeNamesItsKeyAndRange() {
        assertRejected("parq.source.split-size", "0", "parq.source.split-size: must be a size at least 1b, got 0b");
        assertRejected("parq.source.chunk-size", "1gb1b", null);
        assertRejected("parq.source.chunk-size", "2kb", "parq.source.chunk-size: must be a size from 4kb to 1gb, got 2kb");
        assertRejected("parq.parse.batch-rows", "0", "parq.parse.batch-rows: must be from 1 to 1048576, got 0");
        assertRejected("parq.schema.sample-size", "10b", "parq.schema.sample-size: must be a size from 1kb to 1gb, got 10b");
        assertRejected("parq.sink.compression", "brotli",
                "parq.sink.compression: must be one of snappy, zstd, gzip, lz4_raw, none, got 'brotli'");
        assertRejected("parq.tensor.dtype", "int8", "parq.tensor.dtype: must be one of float32, float64, got 'int8'");
    }

    @Test
    void aValueThatDoesNotParseNamesItsKey() {
        assertRejected("parq.parse.batch-rows", "lots", null);
        assertRejected("parq.sink.dictionary", "maybe", null);
        assertRejected("parq.on-error", "ignore", null);
    }

    private static void assertRejected(String key, String value, String message) {
        Configuration config = Configuration.fromMap(Map.of(key, value));
        ConversionException e = assertThrows(ConversionException.class, () -> ParqOptions.validate(config), key);
        assertEquals(2, e.exitCode());
        if (message != null) {
            assertEquals(message, e.getMessage());
        } else {
            assertEquals(key + ":", e.getMessage().substring(0, key.length() + 1), e.getMessage());
        }
    }
}
