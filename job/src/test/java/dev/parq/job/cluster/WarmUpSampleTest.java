package dev.parq.job.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;

class WarmUpSampleTest {

    /** Every line of the sample is one the parser takes, with every column given a value somewhere. */
    @Test
    void theSampleParsesWholeAndFillsEveryColumn() {
        byte[] sample = WarmUpSample.sample(2000);
        ByteBuffer input = ByteBuffer.allocateDirect(sample.length).put(sample).flip();
        List<String> bad = new ArrayList<>();
        long rows = 0;
        List<String> filled = new ArrayList<>();
        try (RootAllocator allocator = new RootAllocator();
                BatchParser parser = new BatchParser(TableSchema.parse(WarmUpSample.SCHEMA).rowType(), allocator, 4096,
                        (file, offset, reason, b, s, e) -> bad.add(offset + ": " + reason))) {
            int pos = 0;
            while (pos < input.limit()) {
                pos = parser.parse(input, pos, input.limit(), "sample", pos);
                VectorSchemaRoot batch = parser.batch();
                rows += parser.rows();
                batch.getFieldVectors().stream()
                        .filter(vector -> vector.getNullCount() < vector.getValueCount())
                        .forEach(vector -> filled.add(vector.getName()));
                parser.clear();
            }
        }
        assertEquals(List.of(), bad);
        assertEquals(2000, rows);
        assertEquals(List.of("ts", "level", "service", "host", "trace_id", "latency_ms", "status", "bytes", "ok", "user",
                "tags", "message", "error"), filled.stream().distinct().toList());
        assertEquals(2000, new String(sample, StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void aWrittenSampleIsWholeLinesOfAtLeastTheSizeAskedFor(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sample.ndjson");
        long written = WarmUpSample.write(file, 5_000_000);
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(written, bytes.length);
        assertTrue(written >= 5_000_000 && written < 5_000_000 + 4_000_000, "bytes: " + written);
        assertEquals('\n', bytes[bytes.length - 1]);
        byte[] start = WarmUpSample.sample(20_000);
        assertArrayEquals(start, Arrays.copyOf(bytes, start.length), "the same lines as the sample's first");
    }
}
