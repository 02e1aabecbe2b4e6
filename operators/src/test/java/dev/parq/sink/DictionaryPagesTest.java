package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.parq.schema.TableSchema;
import dev.parq.testing.DuckDb;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Top-level dictionary-encoded columns, whose pages {@code DictionaryPageWriter} builds: {@code s}
 * has few values (empty, non-ASCII, in runs and scattered) under every pattern of nulls, starting
 * with pages of nulls only, and {@code k} few integers of either sign; {@code f} and {@code i}
 * start with few values and then have only new ones, so that their dictionary outgrows the
 * dictionary page and the column chunk falls back to plain pages. Values, chunk and page statistics are checked with small and large pages, in
 * one row group and in many.
 */
class DictionaryPagesTest {

    private static final RowType ROW_TYPE = TableSchema.parse("s STRING, f STRING, k BIGINT, i INT").rowType();
    private static final String[] SQL_TYPES = {"VARCHAR", "VARCHAR", "BIGINT", "INTEGER"};
    private static final int ROWS = 100_000;
    private static final int BATCH = 4099;
    /** Where {@code f} stops repeating a few values. */
    private static final int FALLBACK_FROM = 50_000;
    private static final String[] FEW = {"", "INFO", "é", "✓ check", "😀", "a", "ab", "b", "\u007f", "ÿ", "Z z"};

    @TempDir
    Path dir;

    private static String s(int g) {
        if (g < 21_000 || (g >= 40_000 && g < 50_000 && g % 2 == 0) || (g >= 60_000 && g % 1000 == 999)) {
            return null;
        }
        if (g >= 60_000 && g < 80_000) {
            return FEW[(g / 50) % FEW.length];
        }
        return FEW[Integer.remainderUnsigned(g * 0x9E3779B1, FEW.length)];
    }

    private static String f(int g) {
        if (g % 13 == 5) {
            return null;
        }
        return g < FALLBACK_FROM ? FEW[g % 3] : "new " + g + " " + "x".repeat(g % 40);
    }

    private static Long k(int g) {
        return g % 10 == 7 ? null : (g % 7 - 3) * 3_000_000_000L;
    }

    private static Integer i(int g) {
        if (g < 21_000 || g % 9 == 2) {
            return null;
        }
        return g < FALLBACK_FROM ? g % 5 - 2 : g * 17 - 1_000_000;
    }

    private static Object value(int column, int g) {
        switch (column) {
            case 0:
                return s(g);
            case 1:
                return f(g);
            case 2:
                return k(g);
            default:
                return i(g);
        }
    }

    private Path write(int pageSize, long rowGroupSize) throws Exception {
        ParquetWriterOptions options =
                ParquetWriterOptions.defaults().withPageSize(pageSize).withRowGroupSize(rowGroupSize);
        return TestFiles.write(dir.resolve("dictionary.parquet"), ROW_TYPE, options, ROWS, BATCH,
                (root, first, count) -> {
                    VarCharVector s = (VarCharVector) root.getVector("s");
                    VarCharVector f = (VarCharVector) root.getVector("f");
                    BigIntVector k = (BigIntVector) root.getVector("k");
                    IntVector i = (IntVector) root.getVector("i");
                    for (int r = 0; r < count; r++) {
                        int row = r;
                        int g = first + r;
                        TestFiles.setString(s, r, s(g));
                        TestFiles.setString(f, r, f(g));
                        TestFiles.setOrNull(k, r, k(g) == null, () -> k.setSafe(row, k(g)));
                        TestFiles.setOrNull(i, r, i(g) == null, () -> i.setSafe(row, i(g)));
                    }
                });
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 262144"})
    void valuesReadBackAndTheDictionaryFallsBackWhenFull(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        int[] g = {0};
        int read = DuckDb.forEachRow("SELECT s, f, k, i FROM read_parquet(" + DuckDb.literal(file)
                + ", file_row_number = true) ORDER BY file_row_number", rs -> {
                    for (int column = 0; column < SQL_TYPES.length; column++) {
                        assertEquals(value(column, g[0]), rs.getObject(column + 1),
                                "row " + g[0] + " of " + ROW_TYPE.getFieldNames().get(column));
                    }
                    g[0]++;
                });
        assertEquals(ROWS, read);
        Map<String, List<String>> encodings = DuckDb.chunkEncodings(file);
        for (String column : new String[] {"s", "k"}) {
            assertTrue(encodings.get(column).stream().allMatch(chunk -> chunk.contains("DICTIONARY")),
                    column + " is written " + encodings.get(column));
        }
        assertTrue(DuckDb.fellBackInAChunk(encodings.get("f")),
                "f should fall back to plain within a column chunk, is written " + encodings.get("f"));
        assertTrue(pageSize > 4096 || DuckDb.fellBackInAChunk(encodings.get("i")),
                "i should fall back to plain within a column chunk, is written " + encodings.get("i"));
        assertTrue(rowGroupSize > 1024 * 1024 || DuckDb.rowGroupCount(file) > 3, "expected several row groups");
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 262144"})
    void chunkStatisticsAgreeWithTheValues(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (int c = 0; c < SQL_TYPES.length; c++) {
            String column = ROW_TYPE.getFieldNames().get(c);
            assertEquals(0, DuckDb.rowGroupsWithWrongStatistics(file, column, column, SQL_TYPES[c]),
                    "row groups with wrong statistics of " + column);
        }
    }

    @ParameterizedTest
    @CsvSource({"1024, 134217728", "1024, 262144"})
    void pageStatisticsAgreeWithThePageRows(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (int column = 0; column < SQL_TYPES.length; column++) {
            List<PageIndexes.Page> pages = PageIndexes.pages(file, column);
            assertTrue(pages.size() > 20, "expected many pages, got " + pages.size());
            for (PageIndexes.Page page : pages) {
                checkPage(column, page);
            }
        }
    }

    private static void checkPage(int column, PageIndexes.Page page) {
        ExpectedStatistics expected = new ExpectedStatistics();
        for (int g = page.first(); g < page.end(); g++) {
            expected.add(value(column, g));
        }
        expected.check(page, "column " + ROW_TYPE.getFieldNames().get(column) + ", page of rows " + page.first()
                + " to " + page.end());
    }
}
