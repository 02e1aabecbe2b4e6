package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.parq.schema.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The column-wise path, taken for schemas without nested columns, writes what the record-wise
 * path writes (which {@link ArrowParquetWriterTest} checks value by value).
 */
class WritePathsTest {

    private static final int SCALAR_COLUMNS = 14;

    @TempDir
    Path dir;

    @Test
    void everyScalarTypeIsWrittenAlikeByBothPaths() throws Exception {
        RowType scalars = new RowType(AllTypesRows.ROW_TYPE.getFields().subList(0, SCALAR_COLUMNS));
        Path columnar = dir.resolve("columnar.parquet");
        Path recordWise = dir.resolve("record-wise.parquet");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot all = VectorSchemaRoot.create(ArrowSchemas.toArrow(AllTypesRows.ROW_TYPE), allocator);
                ArrowParquetWriter fast = new ArrowParquetWriter(
                        new LocalOutputFile(columnar), scalars, ParquetWriterOptions.defaults());
                ArrowParquetWriter slow = ArrowParquetWriter.recordWise(
                        new LocalOutputFile(recordWise), scalars, ParquetWriterOptions.defaults())) {
            all.allocateNew();
            VectorSchemaRoot flat = new VectorSchemaRoot(new ArrayList<FieldVector>(all.getFieldVectors().subList(0, SCALAR_COLUMNS)));
            for (int first = 0; first < 3000; first += 1500) {
                AllTypesRows.fill(all, first, 1500);
                flat.setRowCount(1500);
                fast.write(flat);
                slow.write(flat);
            }
        }
        assertSameRows(columnar, recordWise, 3000);
    }

    @Test
    void nestedRowsAreWrittenAlikeByBothPaths() throws Exception {
        Path columnar = dir.resolve("columnar.parquet");
        Path recordWise = dir.resolve("record-wise.parquet");
        ParquetWriterOptions options = ParquetWriterOptions.defaults().withRowGroupSize(64 * 1024).withPageSize(4 * 1024);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(AllTypesRows.ROW_TYPE), allocator);
                ArrowParquetWriter fast = new ArrowParquetWriter(new LocalOutputFile(columnar), AllTypesRows.ROW_TYPE, options);
                ArrowParquetWriter slow =
                        ArrowParquetWriter.recordWise(new LocalOutputFile(recordWise), AllTypesRows.ROW_TYPE, options)) {
            root.allocateNew();
            int[] sizes = {1, 0, 777, 2048, 3000, 5};
            int first = 0;
            for (int size : sizes) {
                AllTypesRows.fill(root, first, size);
                fast.write(root);
                slow.write(root);
                first += size;
            }
        }
        String left = "SELECT file_row_number, to_json(columns(* EXCLUDE (file_row_number)))::VARCHAR FROM read_parquet("
                + DuckDb.literal(columnar) + ", file_row_number = true)";
        String right = "SELECT file_row_number, to_json(columns(* EXCLUDE (file_row_number)))::VARCHAR FROM read_parquet("
                + DuckDb.literal(recordWise) + ", file_row_number = true)";
        assertEquals(5831, DuckDb.scalarLong("SELECT count(*) FROM (" + left + ")"));
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (" + left + " EXCEPT " + right + ")"));
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (" + right + " EXCEPT " + left + ")"));
    }

    @Test
    void logRowsInSmallRowGroupsAreWrittenAlikeByBothPaths() throws Exception {
        Path columnar = dir.resolve("columnar.parquet");
        Path recordWise = dir.resolve("record-wise.parquet");
        ParquetWriterOptions options = ParquetWriterOptions.defaults().withRowGroupSize(128 * 1024).withPageSize(8 * 1024);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
                ArrowParquetWriter fast = new ArrowParquetWriter(new LocalOutputFile(columnar), LogRows.ROW_TYPE, options);
                ArrowParquetWriter slow =
                        ArrowParquetWriter.recordWise(new LocalOutputFile(recordWise), LogRows.ROW_TYPE, options)) {
            root.allocateNew();
            for (int first = 0; first < 50_000; first += 5000) {
                LogRows.fill(root, first, 5000);
                fast.write(root);
                slow.write(root);
            }
        }
        assertSameRows(columnar, recordWise, 50_000);
        List<String> groups = DuckDb.strings(
                "SELECT count(DISTINCT row_group_id) FROM parquet_metadata(" + DuckDb.literal(columnar) + ")");
        assertEquals(true, Long.parseLong(groups.get(0)) > 3, "row groups: " + groups);
    }

    private static void assertSameRows(Path a, Path b, long rows) throws Exception {
        String left = "SELECT * FROM read_parquet(" + DuckDb.literal(a) + ", file_row_number = true)";
        String right = "SELECT * FROM read_parquet(" + DuckDb.literal(b) + ", file_row_number = true)";
        assertEquals(rows, DuckDb.scalarLong("SELECT count(*) FROM (" + left + ")"));
        assertEquals(rows, DuckDb.scalarLong("SELECT count(*) FROM (" + right + ")"));
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (" + left + " EXCEPT " + right + ")"));
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (" + right + " EXCEPT " + left + ")"));
        assertEquals(
                DuckDb.strings("SELECT name || ' ' || type || ' ' || coalesce(logical_type, '') FROM parquet_schema("
                        + DuckDb.literal(b) + ")"),
                DuckDb.strings("SELECT name || ' ' || type || ' ' || coalesce(logical_type, '') FROM parquet_schema("
                        + DuckDb.literal(a) + ")"));
    }
}
