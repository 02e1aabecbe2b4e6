package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.testing.DuckDb;

/**
 * A file over 2 GiB: Java maps at most 2 GiB in one buffer, so splits and chunks past that offset
 * must be mapped on their own. Every line on both sides of the 2 GiB mark must arrive once.
 */
class LargeFileIT {

    private static final long TWO_GIB = 1L << 31;

    @TempDir
    Path dir;

    @Test
    void convertsEveryLineOfAFileLargerThanTwoGib() throws Exception {
        StringBuilder block = new StringBuilder();
        long idsInBlock = 0;
        long sumInBlock = 0;
        String padding = "p".repeat(200);
        while (block.length() < 64 * 1024 * 1024 - 300) {
            block.append("{\"id\":").append(idsInBlock).append(",\"pad\":\"").append(padding).append("\"}\n");
            sumInBlock += idsInBlock;
            idsInBlock++;
        }
        byte[] bytes = block.toString().getBytes(StandardCharsets.US_ASCII);
        int blocks = (int) (TWO_GIB / bytes.length) + 2;
        Path input = dir.resolve("large.ndjson");
        try (FileChannel out = FileChannel.open(input, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < blocks; i++) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
        }
        long size = Files.size(input);
        assertEquals(true, size > TWO_GIB + 64L * 1024 * 1024, "input is " + size + " bytes");

        Path output = dir.resolve("out");
        Cli.Result result = Cli.run("convert", input.toString(), "-o", output.toString(),
                "--schema", "id BIGINT", "--parallelism", "2", "--compression", "none", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());

        JsonNode manifest = new ObjectMapper().readTree(output.resolve("_SUCCESS").toFile());
        assertEquals(idsInBlock * blocks, manifest.get("rows_written").asLong());
        var totals = DuckDb.query("SELECT count(*), sum(id) FROM " + DuckDb.parquet(output)).get(0);
        assertEquals(idsInBlock * blocks, ((Number) totals.get(0)).longValue());
        assertEquals(sumInBlock * blocks, ((Number) totals.get(1)).longValue());
        Files.delete(input);
    }
}
