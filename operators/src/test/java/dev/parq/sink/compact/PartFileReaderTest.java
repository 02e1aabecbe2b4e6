package dev.parq.sink.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.Compression;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Part files written by the sink's writer read back into Arrow batches: every value of every type as
 * it was written, through several row groups and batches; the file compaction writes from them reads
 * in DuckDB as the part file does.
 */
class PartFileReaderTest {

    private static final int ROWS = 1000;
    private static final int[] WRITE_BATCHES = {1, 37, 500, 211, 251};
    /** Small row groups, so that a file has several and a batch of the reader never spans two. */
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

    @Test
    void everyValueOfEveryTypeComesBackAsWritten() throws Exception {
        Path file = write("every.parquet", EveryTypeRows.ROW_TYPE, SMALL_ROW_GROUPS, ROWS, EveryTypeRows::rows);
        assertTrue(DuckDb.rowGroupCount(file) > 2, "row groups: " + DuckDb.rowGroupCount(file));
        assertReadsAs(file, EveryTypeRows.ROW_TYPE, EveryTypeRows.rows(0, ROWS));
    }

    /** Reads {@code file} back and compares every value of every batch with {@code rows}. */
    private void assertReadsAs(Path file, RowType type, List<List<Object>> rows) throws Exception {
        try (VectorSchemaRoot expected = VectorSchemaRoot.create(ArrowSchemas.toArrow(type), allocator);
                PartFileReader reader = open(file, type)) {
            ArrowValues.fill(expected, rows);
            long row = 0;
            for (ArrowBatch batch = reader.read(); batch != null; batch = reader.read()) {
                assertEquals(row, batch.firstOffset(), "a batch starts where the one before ended");
                assertEquals(row + batch.rowCount(), batch.endOffset());
                assertEquals(flinkPath(file).toString(), batch.file());
                assertTrue(batch.rowCount() > 0);
                for (int r = 0; r < batch.rowCount(); r++, row++) {
                    for (int c = 0; c < expected.getFieldVectors().size(); c++) {
                        assertEquals(expected.getVector(c).getObject((int) row), batch.root().getVector(c).getObject(r),
                                "row " + row + ", column " + expected.getVector(c).getName());
                    }
                }
            }
            assertEquals(rows.size(), row);
        }
    }

    /** Without dictionaries, each column in plain pages smaller than many of its values. */
    @Test
    void plainPagesSmallerThanTheirValuesAreRead() throws Exception {
        Path file = write("plain.parquet", EveryTypeRows.ROW_TYPE,
                SMALL_ROW_GROUPS.withDictionary(false).withPageSize(1024), ROWS, EveryTypeRows::rows);
        assertReadsAs(file, EveryTypeRows.ROW_TYPE, EveryTypeRows.rows(0, ROWS));
    }

    @Test
    void theFileWrittenFromTheBatchesReadsInDuckDbAsThePartFile() throws Exception {
        Path part = write("part.parquet", EveryTypeRows.ROW_TYPE, SMALL_ROW_GROUPS, ROWS, EveryTypeRows::rows);
        Path compacted = dir.resolve("compacted.parquet");
        try (PartFileReader reader = open(part, EveryTypeRows.ROW_TYPE);
                ArrowParquetWriter writer = new ArrowParquetWriter(
                        new LocalOutputFile(compacted), EveryTypeRows.ROW_TYPE, ParquetWriterOptions.defaults())) {
            for (ArrowBatch batch = reader.read(); batch != null; batch = reader.read()) {
                writer.write(batch.root());
            }
        }
        List<String> original = rowsAsDuckDbJson(part);
        assertEquals(ROWS, original.size());
        assertEquals(original, rowsAsDuckDbJson(compacted));
        assertEquals(1, DuckDb.rowGroupCount(compacted), "the compacted file's row groups are the writer's own");
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void everyCodecOfTheSinkIsRead(Compression compression) throws Exception {
        Path file = write("codec.parquet", EveryTypeRows.ROW_TYPE,
                SMALL_ROW_GROUPS.withCompression(compression), ROWS, EveryTypeRows::rows);
        assertReadsAs(file, EveryTypeRows.ROW_TYPE, EveryTypeRows.rows(0, ROWS));
    }

    @Test
    void aBatchEndsAtItsRowsOrItsBytes() throws Exception {
        RowType narrow = TableSchema.parse("n BIGINT").rowType();
        Path many = write("many.parquet", narrow, ParquetWriterOptions.defaults(), 10_000,
                (first, count) -> numbered(first, count, g -> (Object) (long) g));
        assertEquals(List.of(4096, 4096, 1808), readRows(many, narrow));

        RowType wide = TableSchema.parse("s STRING").rowType();
        String value = "w".repeat(100_000);
        Path large = write("large.parquet", wide, ParquetWriterOptions.defaults(), 300,
                (first, count) -> numbered(first, count, g -> value));
        List<Integer> batches = readRows(large, wide);
        assertEquals(300, batches.stream().mapToInt(Integer::intValue).sum());
        int cap = (int) (PartFileReader.BATCH_BYTES / value.length()) + 1;
        assertTrue(batches.stream().allMatch(rows -> rows <= cap), "batches of " + batches + ", at most " + cap);
    }

    @Test
    void aPartFileOfOtherColumnsIsRefusedNamingBoth() throws Exception {
        Path file = write("other.parquet", TableSchema.parse("a BIGINT").rowType(),
                ParquetWriterOptions.defaults(), 3, (first, count) -> numbered(first, count, g -> null));
        PartFileException e = assertThrows(PartFileException.class,
                () -> open(file, TableSchema.parse("a INT").rowType()));
        assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("`a` BIGINT") || e.getMessage().contains("a BIGINT"), e.getMessage());
        assertTrue(e.getMessage().contains("not the sink's"), e.getMessage());
    }

    private List<String> rowsAsDuckDbJson(Path file) throws Exception {
        return DuckDb.strings("SELECT to_json(t)::VARCHAR FROM (SELECT * EXCLUDE (file_row_number) FROM read_parquet("
                + DuckDb.literal(file) + ", file_row_number = true) ORDER BY file_row_number) t");
    }

    /** The row count of each batch the reader gives. */
    private List<Integer> readRows(Path file, RowType type) throws Exception {
        List<Integer> batches = new ArrayList<>();
        try (PartFileReader reader = open(file, type)) {
            for (ArrowBatch batch = reader.read(); batch != null; batch = reader.read()) {
                batches.add(batch.rowCount());
            }
        }
        return batches;
    }

    private static List<List<Object>> numbered(int first, int count, IntFunction<Object> value) {
        List<List<Object>> rows = new ArrayList<>(count);
        for (int g = first; g < first + count; g++) {
            List<Object> row = new ArrayList<>();
            row.add(value.apply(g));
            rows.add(row);
        }
        return rows;
    }

    private PartFileReader open(Path file, RowType type) throws Exception {
        org.apache.flink.core.fs.Path path = flinkPath(file);
        return new PartFileReader(FileSystem.getLocalFileSystem(), path, type);
    }

    private static org.apache.flink.core.fs.Path flinkPath(Path file) {
        return new org.apache.flink.core.fs.Path(file.toUri());
    }

    /** Writes {@code rows} rows of {@code type}, from {@code source}, in batches of the sizes of {@link #WRITE_BATCHES} in turn. */
    private Path write(String name, RowType type, ParquetWriterOptions options, int rows,
            BiFunction<Integer, Integer, List<List<Object>>> source) throws Exception {
        Path file = dir.resolve(name);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(type), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), type, options)) {
            root.allocateNew();
            for (int first = 0, b = 0; first < rows; b++) {
                int count = Math.min(WRITE_BATCHES[b % WRITE_BATCHES.length], rows - first);
                ArrowValues.fill(root, source.apply(first, count));
                writer.write(root);
                first += count;
            }
        }
        return file;
    }
}
