package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.parq.batch.ArrowBatch;
import dev.parq.schema.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowParquetBulkWriterTest {

    @TempDir
    Path dir;

    @Test
    void finishWritesTheFooterButLeavesTheStreamToFlink() throws Exception {
        Path file = dir.resolve("part.parquet");
        Duration delay = Duration.ofMillis(40);
        BulkWriter.Factory<ArrowBatch> factory = InstantiationUtil.clone(new ArrowParquetBulkWriter.Factory(
                LogRows.ROW_TYPE, ParquetWriterOptions.defaults().withBatchDelay(delay)));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator)) {
            root.allocateNew();
            FSDataOutputStream out = new LocalDataOutputStream(file.toFile());
            BulkWriter<ArrowBatch> writer = factory.create(out);
            long start = System.nanoTime();
            for (int batch = 0; batch < 3; batch++) {
                LogRows.fill(root, batch * 1000L, 1000);
                writer.addElement(new ArrowBatch(root, "in.ndjson", batch * 1000L, batch * 1000L + 1000));
            }
            long elapsed = System.nanoTime() - start;
            assertTrue(elapsed >= 3 * delay.toNanos(), "the batch delay test hook was not honored: " + elapsed);
            writer.flush();
            writer.finish();
            long footerEnd = out.getPos();
            out.write(new byte[0]);
            out.flush();
            assertEquals(footerEnd, Files.size(file), "finish() must leave the stream open and flushed");
            out.close();
        }
        assertEquals(3000, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + DuckDb.literal(file) + ")"));
    }
}
