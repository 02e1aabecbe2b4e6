package dev.parq.sink.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.batch.ArrowSchemas;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.ParquetSinks;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.testing.DuckDb;

class ParquetFileCompactorTest {

    private static final int ROWS = 120;
    private static final ParquetWriterOptions SMALL_ROW_GROUPS = ParquetWriterOptions.defaults().withRowGroupSize(256 << 10);

    @TempDir
    Path dir;

    private BufferAllocator allocator;

    @BeforeEach
    void openAllocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    /** Row groups large enough are copied: the compacted file has the part files' row groups and every row once. */
    @Test
    void largeRowGroupsAreCopiedWithEveryRowInOrder() throws Exception {
        List<Path> parts = List.of(part(".part-a.parquet", 0), part(".part-b.parquet", ROWS));
        Path compacted = compact(parts, 1);
        assertEquals(DuckDb.rowGroupCount(parts.get(0)) + DuckDb.rowGroupCount(parts.get(1)), DuckDb.rowGroupCount(compacted));
        assertEquals(rows(parts), rows(List.of(compacted)));
    }

    /** Small row groups are written again, into the writer's own row groups. */
    @Test
    void smallRowGroupsAreWrittenAgainWithEveryRowInOrder() throws Exception {
        List<Path> parts = List.of(part(".part-a.parquet", 0), part(".part-b.parquet", ROWS));
        Path compacted = compact(parts, Long.MAX_VALUE);
        assertEquals(1, DuckDb.rowGroupCount(compacted));
        assertEquals(rows(parts), rows(List.of(compacted)));
    }

    /** A part file that is gone is passed over in either way; its rows are in a compacted file already. */
    @Test
    void aPartFileThatIsGoneIsPassedOver() throws Exception {
        Path part = part(".part-a.parquet", 0);
        List<Path> inputs = List.of(part, dir.resolve(".part-gone.parquet"));
        assertEquals(rows(List.of(part)), rows(List.of(compact(inputs, 1))));
        assertEquals(rows(List.of(part)), rows(List.of(compact(inputs, Long.MAX_VALUE))));
    }

    private Path compact(List<Path> parts, long minRowGroupBytes) throws Exception {
        Path compacted = Files.createTempFile(dir, "compacted-", ".parquet");
        ParquetFileCompactor compactor = new ParquetFileCompactor(EveryTypeRows.ROW_TYPE,
                ParquetSinks.writerFactory(new org.apache.flink.core.fs.Path(dir.toUri()), EveryTypeRows.ROW_TYPE,
                        ParquetWriterOptions.defaults()),
                minRowGroupBytes);
        List<org.apache.flink.core.fs.Path> inputs = new ArrayList<>();
        for (Path part : parts) {
            inputs.add(new org.apache.flink.core.fs.Path(part.toUri()));
        }
        try (OutputStream out = Files.newOutputStream(compacted)) {
            compactor.compact(inputs, out);
        }
        return compacted;
    }

    private Path part(String name, int first) throws Exception {
        Path file = dir.resolve(name);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(EveryTypeRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), EveryTypeRows.ROW_TYPE,
                        SMALL_ROW_GROUPS)) {
            root.allocateNew();
            for (int row = first; row < first + ROWS; row += 100) {
                ArrowValues.fill(root, EveryTypeRows.rows(row, 100));
                writer.write(root);
            }
        }
        return file;
    }

    /** Every row of the files, in order, as DuckDB reads them. */
    private static List<String> rows(List<Path> files) throws Exception {
        List<String> rows = new ArrayList<>();
        for (Path file : files) {
            rows.addAll(DuckDb.strings("SELECT to_json(t)::VARCHAR FROM (SELECT * EXCLUDE (file_row_number) FROM read_parquet("
                    + DuckDb.literal(file) + ", file_row_number = true) ORDER BY file_row_number) t"));
        }
        return rows;
    }
}
