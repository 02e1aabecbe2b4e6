package dev.parq.job.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;

class TaskManagerWarmUpTest {

    /** Every line of the sample is one the parser takes, with every column given a value somewhere. */
    @Test
    void theSampleParsesWholeAndFillsEveryColumn() {
        byte[] sample = TaskManagerWarmUp.sample(2000);
        ByteBuffer input = ByteBuffer.allocateDirect(sample.length).put(sample).flip();
        List<String> bad = new ArrayList<>();
        long rows = 0;
        List<String> filled = new ArrayList<>();
        try (RootAllocator allocator = new RootAllocator();
                BatchParser parser = new BatchParser(TableSchema.parse(TaskManagerWarmUp.SCHEMA).rowType(), allocator, 4096,
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
    void theWarmUpEndsWithinItsLimitAndSaysWhatItDid() {
        String err = stderrOf(() -> TaskManagerWarmUp.premain("1"));
        assertTrue(err.matches("parq warm-up: \\d+ passes over 3\\.\\d MB of NDJSON converted to Parquet in 1\\.\\d s,"
                + " the last at \\d+ MB/s \\(the first at \\d+\\)\\R"), err);
    }

    @Test
    void zeroSecondsTurnsItOff() {
        assertEquals("", stderrOf(() -> TaskManagerWarmUp.premain("0")));
    }

    @Test
    void anArgumentThatIsNoNumberIsNamed() {
        String err = stderrOf(() -> assertEquals(20, TaskManagerWarmUp.limitSeconds("5s")));
        assertTrue(err.startsWith("parq warm-up: the agent's argument is the longest the warm-up may take, in seconds,"
                + " not '5s'; warming up for at most 20 s"), err);
    }

    private static String stderrOf(Runnable action) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
