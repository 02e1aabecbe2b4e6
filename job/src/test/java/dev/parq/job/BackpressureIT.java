package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.testing.DuckDb;

/**
 * A deliberately slow Parquet writer ({@link SlowWriterConversion} sleeps after every batch) under a large
 * input: the source and the parsers must wait for it rather than read ahead, so the process's
 * memory stays bounded by its configuration, not by the input; and every row still arrives.
 *
 * <p>Runs the conversion on the embedded jar as its own process and samples its resident memory from /proc:
 * {@code RssFile} counts the mapped input pages that are resident, {@code RssAnon} the heap and
 * Arrow's off-heap buffers.
 */
class BackpressureIT {

    private static final long MIB = 1024 * 1024;
    private static final int LINES = 1_200_000;
    private static final int BATCH_ROWS = 4096;
    private static final int DELAY_MS = 15;

    @TempDir
    Path dir;

    @Test
    void aSlowWriterHoldsBackTheSourceAndMemoryStaysBounded() throws Exception {
        Path input = dir.resolve("big.ndjson");
        try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            String text = "x".repeat(230);
            for (int i = 0; i < LINES; i++) {
                out.write("{\"id\":" + i + ",\"msg\":\"" + text + "\"}\n");
            }
        }
        long inputBytes = Files.size(input);
        Path output = dir.resolve("out");

        List<String> command = SlowWriterConversion.command(input, output, DELAY_MS, BATCH_ROWS, 2,
                "id BIGINT, msg STRING");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        long started = System.nanoTime();
        Process process = builder.start();
        long peakFile = 0;
        long peakAnon = 0;
        while (!process.waitFor(50, TimeUnit.MILLISECONDS)) {
            Path status = Path.of("/proc", Long.toString(process.pid()), "status");
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("RssFile:")) {
                        peakFile = Math.max(peakFile, kilobytes(line) * 1024);
                    } else if (line.startsWith("RssAnon:")) {
                        peakAnon = Math.max(peakAnon, kilobytes(line) * 1024);
                    }
                }
            } catch (IOException exited) {
                // The process ended between the wait and the read.
            }
            assertTrue(System.nanoTime() - started < TimeUnit.MINUTES.toNanos(5), "conversion did not finish");
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        String err = Files.readString(dir.resolve("stderr"));
        assertEquals(0, process.exitValue(), err);

        JsonNode manifest = new ObjectMapper().readTree(output.resolve("_SUCCESS").toFile());
        assertEquals(LINES, manifest.get("rows_written").asLong());
        assertEquals(LINES, DuckDb.count(DuckDb.parquet(output)));

        // The decorator really slowed the writer: two writers slept at least this long in total.
        long batches = LINES / BATCH_ROWS;
        assertTrue(elapsedMs >= batches * DELAY_MS / 2, "elapsed " + elapsedMs + " ms");
        String figures = String.format("input %d MiB, peak RssFile %d MiB, peak RssAnon %d MiB, %d ms",
                inputBytes / MIB, peakFile / MIB, peakAnon / MIB, elapsedMs);
        System.out.println("BackpressureIT: " + figures);
        // Mapped input is released chunk by chunk: its resident pages stay far below the input size.
        assertTrue(peakFile < 160 * MIB && peakFile < inputBytes / 2, figures);
        // Heap is capped at 256 MiB; Arrow batches and Flink's buffers add a bounded amount.
        assertTrue(peakAnon < 640 * MIB, figures);
    }

    private static long kilobytes(String statusLine) {
        return Long.parseLong(statusLine.replaceAll("[^0-9]", ""));
    }
}
