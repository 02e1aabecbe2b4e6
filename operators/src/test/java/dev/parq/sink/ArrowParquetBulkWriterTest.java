package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.testing.DuckDb;
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
        BulkWriter.Factory<ArrowBatch> factory = InstantiationUtil.clone(new ArrowParquetBulkWriter.Factory(
                new org.apache.flink.core.fs.Path(dir.toUri()), LogRows.ROW_TYPE, ParquetWriterOptions.defaults()));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator)) {
            root.allocateNew();
            FSDataOutputStream out = new LocalDataOutputStream(file.toFile());
            BulkWriter<ArrowBatch> writer = factory.create(out);
            for (int batch = 0; batch < 3; batch++) {
                LogRows.fill(root, batch * 1000L, 1000);
                writer.addElement(new ArrowBatch(root, "in.ndjson", batch * 1000L, batch * 1000L + 1000));
            }
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

    /**
     * A writer that runs out of heap anyway fails with the file and the byte offset of the line it
     * was writing, and the settings that give it room, instead of a bare OutOfMemoryError. The heap
     * runs out here where the row group reaches the file, in the third batch's slices.
     */
    @Test
    void runningOutOfHeapNamesTheLineBeingWritten() throws Exception {
        Path file = dir.resolve("part.parquet");
        BulkWriter.Factory<ArrowBatch> factory = new ArrowParquetBulkWriter.Factory(
                new org.apache.flink.core.fs.Path(dir.toUri()), LogRows.ROW_TYPE,
                ParquetWriterOptions.defaults().withRowGroupSize(256 * 1024));
        long[] offsets = new long[1000];
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
                FSDataOutputStream out = new HeapExhaustingStream(file, 40_000)) {
            root.allocateNew();
            BulkWriter<ArrowBatch> writer = factory.create(out);
            OutOfHeapException failure = null;
            for (int batch = 0; batch < 20 && failure == null; batch++) {
                LogRows.fill(root, batch * 1000L, 1000);
                for (int row = 0; row < offsets.length; row++) {
                    offsets[row] = 1_000_000L * batch + 100L * row;
                }
                try {
                    writer.addElement(new ArrowBatch(root, "in.ndjson", offsets[0], offsets[999] + 100, offsets));
                } catch (OutOfHeapException e) {
                    failure = e;
                }
            }
            assertTrue(failure != null, "the stream never ran out of heap");
            assertEquals("in.ndjson", failure.file());
            assertTrue(failure.offset() % 100 == 0 && failure.offset() > 0, "offset " + failure.offset());
            assertTrue(failure.getMessage().startsWith("in.ndjson: ran out of heap (injected) while writing the line at byte "
                    + failure.offset() + " to Parquet"), failure.getMessage());
            assertTrue(failure.getMessage().contains("PARQ_JAVA_OPTS=-Xmx1g")
                    && failure.getMessage().contains("taskmanager.memory.task.heap.size"), failure.getMessage());
        }
    }

    /** A local stream whose writes past {@code limit} bytes throw OutOfMemoryError, as a full heap would. */
    private static final class HeapExhaustingStream extends LocalDataOutputStream {
        private final long limit;

        HeapExhaustingStream(Path file, long limit) throws java.io.IOException {
            super(file.toFile());
            this.limit = limit;
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            if (getPos() + len > limit) {
                throw new OutOfMemoryError("injected");
            }
            super.write(b, off, len);
        }

        @Override
        public void write(int b) throws java.io.IOException {
            if (getPos() + 1 > limit) {
                throw new OutOfMemoryError("injected");
            }
            super.write(b);
        }
    }
}
