package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import dev.parq.batch.ArrowSchemas;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowGroupSizeTest {

    @TempDir
    Path dir;

    private long rowGroups(Path file, ParquetWriterOptions options, int rows) throws Exception {
        int batch = 10_000;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), LogRows.ROW_TYPE, options)) {
            root.allocateNew();
            for (int first = 0; first < rows; first += batch) {
                LogRows.fill(root, first, Math.min(batch, rows - first));
                writer.write(root);
            }
        }
        String source = DuckDb.literal(file);
        assertEquals(rows, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + source + ")"));
        assertEquals(rows, DuckDb.scalarLong(
                "SELECT sum(row_group_num_rows) FROM (SELECT DISTINCT row_group_id, row_group_num_rows"
                        + " FROM parquet_metadata(" + source + "))"));
        return DuckDb.scalarLong("SELECT count(DISTINCT row_group_id) FROM parquet_metadata(" + source + ")");
    }

    @Test
    void smallRowGroupSizeCutsSeveralRowGroups() throws Exception {
        long groups = rowGroups(dir.resolve("small.parquet"),
                ParquetWriterOptions.defaults().withRowGroupSize(64 * 1024), 100_000);
        assertTrue(groups >= 5, "expected several row groups, got " + groups);
    }

    @Test
    void defaultRowGroupSizeKeepsOneRowGroup() throws Exception {
        assertEquals(1, rowGroups(dir.resolve("default.parquet"), ParquetWriterOptions.defaults(), 100_000));
    }
}
