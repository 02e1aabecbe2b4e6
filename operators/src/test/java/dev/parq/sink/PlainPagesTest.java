package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.parq.schema.TableSchema;
import dev.parq.testing.DuckDb;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Top-level columns without dictionary, whose pages {@code PlainPageWriter} builds: values and
 * nulls in every pattern the definition-level encoding distinguishes read back through DuckDB,
 * across page and batch boundaries that fall anywhere in a byte of levels, and the statistics of
 * the column chunk and of each page agree with the values.
 */
class PlainPagesTest {

    private static final RowType ROW_TYPE = TableSchema.parse("i INT, s STRING, d DOUBLE, b BIGINT, f FLOAT").rowType();
    private static final int ROWS = 100_000;
    private static final int BATCH = 4099;

    @TempDir
    Path dir;

    /**
     * Row {@code g} of column {@code column} is null: a first page of nulls only, then all set,
     * alternating, scattered, runs of 37 and rare nulls.
     */
    private static boolean isNull(int column, int g) {
        if (g < 21_000) {
            return true;
        } else if (g < 30_000) {
            return false;
        } else if (g < 40_000) {
            return (g + column) % 2 == 0;
        } else if (g < 60_000) {
            return Integer.remainderUnsigned((g + column) * 0x9E3779B1, 3) == 0;
        } else if (g < 80_000) {
            return ((g + column) / 37) % 2 == 0;
        } else {
            return (g + column) % 1000 == 999;
        }
    }

    private static int integer(int g) {
        return g % 2 == 0 ? g * 7 - 3 : -g * 11;
    }

    private static String string(int g) {
        return g % 5 == 0 ? "" : g % 5 == 1 ? "é✓😀 " + g : "v" + Integer.toString(g, 36);
    }

    private static double dbl(int g) {
        return g / 3.0 - 20_000;
    }

    private static long bigint(int g) {
        return (g % 3 - 1) * 1_000_000_007L * g;
    }

    private static float real(int g) {
        return g * 0.5f - 30_000;
    }

    private Path write(ParquetWriterOptions options) throws Exception {
        return TestFiles.write(dir.resolve("plain.parquet"), ROW_TYPE, options, ROWS, BATCH, (root, first, count) -> {
            IntVector i = (IntVector) root.getVector(0);
            VarCharVector s = (VarCharVector) root.getVector(1);
            Float8Vector d = (Float8Vector) root.getVector(2);
            BigIntVector b = (BigIntVector) root.getVector(3);
            Float4Vector f = (Float4Vector) root.getVector(4);
            for (int r = 0; r < count; r++) {
                int row = r;
                int g = first + r;
                TestFiles.setOrNull(i, row, isNull(0, g), () -> i.setSafe(row, integer(g)));
                TestFiles.setOrNull(s, row, isNull(1, g), () -> s.setSafe(row, string(g).getBytes(StandardCharsets.UTF_8)));
                TestFiles.setOrNull(d, row, isNull(2, g), () -> d.setSafe(row, dbl(g)));
                TestFiles.setOrNull(b, row, isNull(3, g), () -> b.setSafe(row, bigint(g)));
                TestFiles.setOrNull(f, row, isNull(4, g), () -> f.setSafe(row, real(g)));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1024 * 1024, 1024})
    void valuesAndNullsReadBack(int pageSize) throws Exception {
        Path file = write(ParquetWriterOptions.defaults().withDictionary(false).withPageSize(pageSize));

        int[] g = {0};
        int read = DuckDb.forEachRow("SELECT i, s, d, b, f FROM read_parquet(" + DuckDb.literal(file)
                + ", file_row_number = true) ORDER BY file_row_number", rs -> checkRow(rs, g[0]++));
        assertEquals(ROWS, read);
        if (pageSize == 1024) {
            assertTrue(DuckDb.scalarLong("SELECT max(total_compressed_size) FROM parquet_metadata("
                    + DuckDb.literal(file) + ")") > 100 * 1024, "expected a hundred small pages in a column");
        }
    }

    private static void checkRow(ResultSet rs, int g) throws SQLException {
        expect(rs, 0, g, integer(g), rs.getInt(1));
        expect(rs, 1, g, string(g), rs.getString(2));
        expect(rs, 2, g, dbl(g), rs.getDouble(3));
        expect(rs, 3, g, bigint(g), rs.getLong(4));
        expect(rs, 4, g, real(g), rs.getFloat(5));
    }

    private static void expect(ResultSet rs, int column, int g, Object expected, Object actual) throws SQLException {
        String where = "row " + g + ", column " + ROW_TYPE.getFieldNames().get(column);
        if (isNull(column, g)) {
            assertTrue(rs.wasNull(), where + " should be null");
        } else {
            assertTrue(!rs.wasNull(), where + " should not be null");
            assertEquals(expected, actual, where);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1024 * 1024, 1024})
    void statisticsAgreeWithTheValues(int pageSize) throws Exception {
        String source = DuckDb.literal(write(ParquetWriterOptions.defaults().withDictionary(false).withPageSize(pageSize)));
        String[] types = {"INTEGER", "VARCHAR", "DOUBLE", "BIGINT", "FLOAT"};
        for (int c = 0; c < types.length; c++) {
            String column = ROW_TYPE.getFieldNames().get(c);
            String stats = "(SELECT %s FROM parquet_metadata(" + source + ") WHERE path_in_schema = '" + column + "')";
            String sql = "SELECT " + String.format(stats, "stats_min_value") + "::" + types[c] + " = min(" + column
                    + ") AND " + String.format(stats, "stats_max_value") + "::" + types[c] + " = max(" + column
                    + ") AND " + String.format(stats, "stats_null_count") + " = count(*) - count(" + column
                    + ") FROM read_parquet(" + source + ")";
            assertEquals(1, DuckDb.scalarLong("SELECT (" + sql + ")::INTEGER"), "statistics of " + column);
        }
    }

    /** Each page's minimum, maximum and null count, as the column index keeps them, are those of its rows. */
    @Test
    void pageStatisticsAgreeWithThePageRows() throws Exception {
        Path file = write(ParquetWriterOptions.defaults().withDictionary(false).withPageSize(1024));
        for (int c = 0; c < ROW_TYPE.getFieldCount(); c++) {
            List<PageIndexes.Page> pages = PageIndexes.pages(file, c);
            assertTrue(pages.size() > 20, "expected many pages, got " + pages.size());
            for (PageIndexes.Page page : pages) {
                checkPage(c, page);
            }
        }
    }

    private static void checkPage(int column, PageIndexes.Page page) {
        String where = "column " + ROW_TYPE.getFieldNames().get(column) + ", page of rows " + page.first() + " to "
                + page.end();
        Comparator<ByteBuffer> order = PAGE_VALUE_ORDERS.get(column);
        ByteBuffer min = null;
        ByteBuffer max = null;
        long nulls = 0;
        for (int g = page.first(); g < page.end(); g++) {
            if (isNull(column, g)) {
                nulls++;
                continue;
            }
            ByteBuffer value = plainValue(column, g);
            min = min == null || order.compare(value, min) < 0 ? value : min;
            max = max == null || order.compare(value, max) > 0 ? value : max;
        }
        assertEquals(nulls, page.nulls(), where);
        assertEquals(min == null, page.nullsOnly(), where);
        if (min != null) {
            assertEquals(min, page.min(), where + ": min");
            assertEquals(max, page.max(), where + ": max");
        }
    }

    /** How a column's values compare, on their bytes as the column index stores them. */
    private static final List<Comparator<ByteBuffer>> PAGE_VALUE_ORDERS = List.of(
            Comparator.comparingInt(b -> b.getInt(0)),
            (a, b) -> Arrays.compareUnsigned(a.array(), b.array()),
            Comparator.comparingDouble(b -> b.getDouble(0)),
            Comparator.comparingLong(b -> b.getLong(0)),
            (a, b) -> Float.compare(a.getFloat(0), b.getFloat(0)));

    private static ByteBuffer plainValue(int column, int g) {
        switch (column) {
            case 0:
                return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, integer(g));
            case 1:
                return ByteBuffer.wrap(string(g).getBytes(StandardCharsets.UTF_8));
            case 2:
                return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, dbl(g));
            case 3:
                return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, bigint(g));
            default:
                return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, real(g));
        }
    }
}
