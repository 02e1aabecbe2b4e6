package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.SchemaException;
import dev.parq.schema.TableSchema;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowParquetWriterTest {

    private static final int[] BATCH_SIZES = {40, 40, 23};

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

    /** Writes the batches of {@link AllTypesRows} through one reused root; returns the row count. */
    private int writeAllTypes(Path file, ParquetWriterOptions options) throws Exception {
        int rows = 0;
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(AllTypesRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer =
                        new ArrowParquetWriter(new LocalOutputFile(file), AllTypesRows.ROW_TYPE, options)) {
            root.allocateNew();
            for (int size : BATCH_SIZES) {
                AllTypesRows.fill(root, rows, size);
                writer.write(root);
                rows += size;
            }
            assertEquals(rows, writer.rowsWritten());
        }
        return rows;
    }

    @Test
    void everyTypeRoundTripsThroughDuckDb() throws Exception {
        roundTripsThroughDuckDb(ParquetWriterOptions.defaults());
    }

    /** Without dictionary, top-level columns are written as plain pages; small pages cut many of them. */
    @Test
    void everyTypeRoundTripsInSmallPlainPages() throws Exception {
        roundTripsThroughDuckDb(ParquetWriterOptions.defaults().withDictionary(false).withPageSize(256));
    }

    private void roundTripsThroughDuckDb(ParquetWriterOptions options) throws Exception {
        Path file = dir.resolve("all.parquet");
        int rows = writeAllTypes(file, options);

        int[] g = {0};
        int read = DuckDb.forEachRow("SELECT flag, ti, si, i, bi, f, d, dec10, dec30, s, dt - DATE '1970-01-01',"
                        + " epoch_ms(ts3), epoch_us(ts6), epoch_ms(tz3), to_json(r)::VARCHAR, to_json(al)::VARCHAR,"
                        + " to_json(ar)::VARCHAR, to_json(m)::VARCHAR"
                        + " FROM read_parquet(" + DuckDb.literal(file) + ", file_row_number = true)"
                        + " ORDER BY file_row_number",
                rs -> checkRow(rs, g[0]++));
        assertEquals(rows, read);
    }

    private static void checkRow(ResultSet rs, int g) throws SQLException {
        String at = "row " + g + ", column ";
        expect(rs, 0, g, AllTypesRows.bool(g), rs.getBoolean(1));
        expect(rs, 1, g, AllTypesRows.tinyint(g), rs.getByte(2));
        expect(rs, 2, g, AllTypesRows.smallint(g), rs.getShort(3));
        expect(rs, 3, g, AllTypesRows.integer(g), rs.getInt(4));
        expect(rs, 4, g, AllTypesRows.bigint(g), rs.getLong(5));
        expect(rs, 5, g, AllTypesRows.real(g), rs.getFloat(6));
        expect(rs, 6, g, AllTypesRows.dbl(g), rs.getDouble(7));
        expect(rs, 7, g, AllTypesRows.dec10(g), rs.getBigDecimal(8));
        expect(rs, 8, g, AllTypesRows.dec30(g), rs.getBigDecimal(9));
        expect(rs, 9, g, AllTypesRows.string(g), rs.getString(10));
        expect(rs, 10, g, (long) AllTypesRows.date(g), rs.getLong(11));
        expect(rs, 11, g, AllTypesRows.ts3(g), rs.getLong(12));
        expect(rs, 12, g, AllTypesRows.ts6(g), rs.getLong(13));
        expect(rs, 13, g, AllTypesRows.tz3(g), rs.getLong(14));
        assertEquals(AllTypesRows.rowJson(g), rs.getString(15), at + "r");
        assertEquals(AllTypesRows.arrayJson(g), rs.getString(16), at + "al");
        assertEquals(AllTypesRows.arrayOfRowsJson(g), rs.getString(17), at + "ar");
        assertEquals(AllTypesRows.mapJson(g), rs.getString(18), at + "m");
    }

    /** The value just read from column {@code column} (0-based) is {@code expected} unless that cell is null. */
    private static void expect(ResultSet rs, int column, int g, Object expected, Object actual) throws SQLException {
        String where = "row " + g + ", column " + AllTypesRows.ROW_TYPE.getFieldNames().get(column);
        if (AllTypesRows.isNull(column, g)) {
            assertTrue(rs.wasNull(), where + " should be null");
        } else {
            assertTrue(!rs.wasNull(), where + " should not be null");
            assertEquals(expected, actual, where);
        }
    }

    @Test
    void writesStandardLogicalTypes() throws Exception {
        Path file = dir.resolve("types.parquet");
        writeAllTypes(file, ParquetWriterOptions.defaults());
        String from = "FROM parquet_schema(" + DuckDb.literal(file) + ")";
        Map<String, String> physical = DuckDb.pairs("SELECT name, type " + from);
        Map<String, String> converted = DuckDb.pairs("SELECT name, converted_type " + from);
        Map<String, String> logical = DuckDb.pairs("SELECT name, logical_type " + from);

        assertEquals("BOOLEAN", physical.get("flag"));
        assertEquals("INT_8", converted.get("ti"));
        assertEquals("INT_16", converted.get("si"));
        assertEquals("INT_32", converted.get("i"));
        assertEquals("INT64", physical.get("bi"));
        assertNull(converted.get("bi"));
        assertEquals("FLOAT", physical.get("f"));
        assertEquals("DOUBLE", physical.get("d"));
        assertEquals("INT64", physical.get("dec10"));
        assertEquals("DECIMAL", converted.get("dec10"));
        assertEquals("FIXED_LEN_BYTE_ARRAY", physical.get("dec30"));
        assertEquals("DECIMAL", converted.get("dec30"));
        assertEquals(13, DuckDb.scalarLong("SELECT type_length " + from + " WHERE name = 'dec30'"));
        assertEquals("30/5", DuckDb.pairs("SELECT name, precision || '/' || scale " + from).get("dec30"));
        assertEquals("UTF8", converted.get("s"));
        assertEquals("DATE", converted.get("dt"));
        assertTrue(logical.get("ts3").contains("isAdjustedToUTC=0") && logical.get("ts3").contains("MILLIS"),
                logical.get("ts3"));
        assertTrue(logical.get("ts6").contains("isAdjustedToUTC=0") && logical.get("ts6").contains("MICROS"),
                logical.get("ts6"));
        assertTrue(logical.get("tz3").contains("isAdjustedToUTC=1") && logical.get("tz3").contains("MILLIS"),
                logical.get("tz3"));
        assertEquals("LIST", converted.get("al"));
        assertEquals("LIST", converted.get("ar"));
        assertEquals("MAP", converted.get("m"));
        assertEquals(
                java.util.List.of("OPTIONAL"),
                DuckDb.strings("SELECT DISTINCT repetition_type " + from
                        + " WHERE name NOT IN ('parq', 'list', 'key_value', 'key')"));
        assertEquals("REQUIRED", DuckDb.pairs("SELECT name, repetition_type " + from).get("key"));
        assertEquals("REPEATED", DuckDb.pairs("SELECT name, repetition_type " + from).get("key_value"));
    }

    @Test
    void duckDbSeesTheColumnTypes() throws Exception {
        Path file = dir.resolve("describe.parquet");
        writeAllTypes(file, ParquetWriterOptions.defaults());
        Map<String, String> types =
                DuckDb.pairs("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet("
                        + DuckDb.literal(file) + "))");
        assertEquals("TIMESTAMP WITH TIME ZONE", types.get("tz3"));
        assertEquals("TIMESTAMP", types.get("ts3"));
        assertEquals("TIMESTAMP", types.get("ts6"));
        assertEquals("TINYINT", types.get("ti"));
        assertEquals("SMALLINT", types.get("si"));
        assertEquals("DECIMAL(10,2)", types.get("dec10"));
        assertEquals("DECIMAL(30,5)", types.get("dec30"));
        assertEquals("DATE", types.get("dt"));
        assertEquals("STRUCT(a BIGINT, b STRUCT(c VARCHAR))", types.get("r"));
        assertEquals("BIGINT[]", types.get("al"));
        assertEquals("STRUCT(k VARCHAR)[]", types.get("ar"));
        assertEquals("MAP(VARCHAR, DOUBLE)", types.get("m"));
    }

    @Test
    void storesTheSchemaInTheFileMetadata() throws Exception {
        Path file = dir.resolve("meta.parquet");
        writeAllTypes(file, ParquetWriterOptions.defaults());
        String ddl = DuckDb.strings("SELECT decode(value) FROM parquet_kv_metadata(" + DuckDb.literal(file)
                        + ") WHERE decode(key) = '" + ArrowParquetWriter.SCHEMA_METADATA_KEY + "'")
                .get(0);
        assertEquals(AllTypesRows.ROW_TYPE, TableSchema.parse(ddl).rowType());
    }

    @Test
    void rejectsANullMapKeyNamingTheColumn() throws Exception {
        RowType rowType = TableSchema.parse("attrs MAP<STRING, INT>").rowType();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(
                        new LocalOutputFile(dir.resolve("nullkey.parquet")), rowType, ParquetWriterOptions.defaults())) {
            root.allocateNew();
            MapVector map = (MapVector) root.getVector(0);
            StructVector entries = (StructVector) map.getDataVector();
            map.startNewValue(0);
            entries.setIndexDefined(0);
            ((IntVector) entries.getChild(MapVector.VALUE_NAME)).setSafe(0, 1);
            map.endValue(0, 1);
            root.setRowCount(1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> writer.write(root));
            assertTrue(e.getMessage().contains("MAP column 'attrs' has a null key"), e.getMessage());
        }
    }

    @Test
    void rejectsABatchOfAnotherSchema() throws Exception {
        Path file = dir.resolve("wrong.parquet");
        try (VectorSchemaRoot other = VectorSchemaRoot.create(
                        ArrowSchemas.toArrow(TableSchema.parse("id INT").rowType()), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(
                        new LocalOutputFile(file), TableSchema.parse("id BIGINT").rowType(),
                        ParquetWriterOptions.defaults())) {
            other.allocateNew();
            other.setRowCount(0);
            SchemaException e = assertThrows(SchemaException.class, () -> writer.write(other));
            assertTrue(e.getMessage().contains("is not the sink's"), e.getMessage());
        }
    }
}
