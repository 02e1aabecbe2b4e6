package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.schema.TableSchema;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.source.enumerator.InputFile;

/** The warm-up is a head start only: it never fails a run and stops when told. */
class WarmupTest {

    private static final TableSchema SCHEMA = TableSchema.parse("id BIGINT, name STRING");

    @TempDir
    Path dir;

    @Test
    void readsTheHeadOfTheFirstInputAndWritesNothing() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            lines.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}\n");
        }
        Path input = Files.writeString(dir.resolve("in.ndjson"), lines);
        AtomicInteger asked = new AtomicInteger();
        Warmup.run(List.of(InputFile.of(input)), SCHEMA, 4096, ParquetWriterOptions.defaults(), () -> {
            asked.incrementAndGet();
            return false;
        });
        assertTrue(asked.get() > 1, "parsed step by step, asking each time whether to stop");
        try (var files = Files.list(dir)) {
            assertEquals(List.of(input), files.toList());
        }
    }

    @Test
    void badInputAndMissingFilesAreLeftToTheJob() throws Exception {
        Path bad = Files.write(dir.resolve("bad.ndjson"),
                "{\"id\": 1}\nnot json\n{\"id\": \"x\"}\n\u00ff\u00fe\n{".getBytes(StandardCharsets.ISO_8859_1));
        Warmup.run(List.of(InputFile.of(bad)), SCHEMA, 2, ParquetWriterOptions.defaults(), () -> false);
        InputFile gone = new InputFile(dir.resolve("gone.ndjson").toString(), 100, "0:0");
        Warmup.run(List.of(gone), SCHEMA, 4096, ParquetWriterOptions.defaults(), () -> false);
    }

    @Test
    void stopsAtOnceWhenTheClusterIsAlreadyUp() throws Exception {
        Path input = Files.writeString(dir.resolve("in.ndjson"), "{\"id\":1}\n");
        AtomicInteger asked = new AtomicInteger();
        Warmup.run(List.of(InputFile.of(input)), SCHEMA, 4096, ParquetWriterOptions.defaults(), () -> {
            asked.incrementAndGet();
            return true;
        });
        assertEquals(1, asked.get());
    }
}
