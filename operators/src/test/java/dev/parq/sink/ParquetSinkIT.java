package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file sink on a local MiniCluster: batches in, committed part files directly in the output directory out. */
class ParquetSinkIT {

    @TempDir
    Path dir;

    /** Turns a row count into a batch of log rows, refilling one root as the parse operator does. */
    static final class ToBatch extends RichMapFunction<Integer, ArrowBatch> {
        private transient BufferAllocator allocator;
        private transient VectorSchemaRoot root;
        private long nextRow;

        @Override
        public void open(OpenContext context) {
            allocator = new RootAllocator();
            root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
            root.allocateNew();
        }

        @Override
        public ArrowBatch map(Integer rows) {
            LogRows.fill(root, nextRow, rows);
            ArrowBatch batch = new ArrowBatch(root, "generated", nextRow, nextRow + rows);
            nextRow += rows;
            return batch;
        }

        @Override
        public void close() {
            root.close();
            allocator.close();
        }
    }

    @Test
    void boundedJobLeavesOnlyCommittedPartFilesInTheOutputDirectory() throws Exception {
        Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        // The batch is handed to the chained sink by reference; nothing serializes it.
        env.getConfig().enableObjectReuse();
        env.fromData(1000, 2500, 10, 4000)
                .map(new ToBatch())
                .returns(Types.GENERIC(ArrowBatch.class))
                .sinkTo(ParquetSinks.forBatches(
                        new org.apache.flink.core.fs.Path(out.toUri()), LogRows.ROW_TYPE, ParquetWriterOptions.defaults()));
        env.execute("parquet sink test");

        List<Path> entries;
        try (Stream<Path> listing = Files.list(out)) {
            entries = listing.collect(Collectors.toList());
        }
        assertFalse(entries.isEmpty(), "no part file in " + out);
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            assertTrue(Files.isRegularFile(entry), entry + " is not a plain file");
            assertTrue(name.startsWith("part-") && name.endsWith(".parquet"), "unexpected file " + name);
        }
        assertEquals(7510, DuckDb.scalarLong(
                "SELECT count(*) FROM read_parquet(" + DuckDb.literal(out.resolve("*.parquet")) + ")"));
    }
}
