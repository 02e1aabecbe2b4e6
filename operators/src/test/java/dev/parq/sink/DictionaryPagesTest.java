package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.parq.schema.TableSchema;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Top-level dictionary-encoded string columns, whose pages {@code DictionaryPageWriter} builds:
 * {@code s} has few values (empty, non-ASCII, in runs and scattered) under every pattern of
 * nulls, starting with pages of nulls only; {@code f} starts with few values and then has only
 * new ones, so that its dictionary outgrows the dictionary page and the column chunk falls back
 * to plain pages. Values, chunk and page statistics are checked with small and large pages, in
 * one row group and in many.
 */
class DictionaryPagesTest {

    private static final RowType ROW_TYPE = TableSchema.parse("s STRING, f STRING").rowType();
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

    private static String value(int column, int g) {
        return column == 0 ? s(g) : f(g);
    }

    private Path write(int pageSize, long rowGroupSize) throws Exception {
        ParquetWriterOptions options =
                ParquetWriterOptions.defaults().withPageSize(pageSize).withRowGroupSize(rowGroupSize);
        return TestFiles.write(dir.resolve("dictionary.parquet"), ROW_TYPE, options, ROWS, BATCH,
                (root, first, count) -> {
                    for (int column = 0; column < 2; column++) {
                        for (int r = 0; r < count; r++) {
                            TestFiles.setString((VarCharVector) root.getVector(column), r, value(column, first + r));
                        }
                    }
                });
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 65536"})
    void valuesReadBackAndTheDictionaryFallsBackWhenFull(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        int[] g = {0};
        int read = DuckDb.forEachRow("SELECT s, f FROM read_parquet(" + DuckDb.literal(file)
                + ", file_row_number = true) ORDER BY file_row_number", rs -> {
                    assertEquals(s(g[0]), rs.getString(1), "row " + g[0] + " of s");
                    assertEquals(f(g[0]), rs.getString(2), "row " + g[0] + " of f");
                    g[0]++;
                });
        assertEquals(ROWS, read);
        Map<String, List<String>> encodings = DuckDb.chunkEncodings(file);
        assertTrue(encodings.get("s").stream().allMatch(chunk -> chunk.contains("DICTIONARY")),
                "s is written " + encodings.get("s"));
        assertTrue(DuckDb.fellBackInAChunk(encodings.get("f")),
                "f should fall back to plain within a column chunk, is written " + encodings.get("f"));
        assertTrue(rowGroupSize > 1024 * 1024 || DuckDb.rowGroupCount(file) > 3, "expected several row groups");
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 65536"})
    void chunkStatisticsAgreeWithTheValues(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (String column : ROW_TYPE.getFieldNames()) {
            assertEquals(0, DuckDb.rowGroupsWithWrongStatistics(file, column, column, "VARCHAR"),
                    "row groups with wrong statistics of " + column);
        }
    }

    @ParameterizedTest
    @CsvSource({"1024, 134217728", "1024, 65536"})
    void pageStatisticsAgreeWithThePageRows(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (int column = 0; column < 2; column++) {
            List<PageIndexes.Page> pages = PageIndexes.pages(file, column);
            assertTrue(pages.size() > 20, "expected many pages, got " + pages.size());
            for (PageIndexes.Page page : pages) {
                checkPage(column, page);
            }
        }
    }

    private static void checkPage(int column, PageIndexes.Page page) {
        String where = "column " + ROW_TYPE.getFieldNames().get(column) + ", page of rows " + page.first() + " to "
                + page.end();
        ByteBuffer min = null;
        ByteBuffer max = null;
        long nulls = 0;
        for (int g = page.first(); g < page.end(); g++) {
            String value = value(column, g);
            if (value == null) {
                nulls++;
                continue;
            }
            ByteBuffer bytes = ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8));
            min = min == null || Arrays.compareUnsigned(bytes.array(), min.array()) < 0 ? bytes : min;
            max = max == null || Arrays.compareUnsigned(bytes.array(), max.array()) > 0 ? bytes : max;
        }
        assertEquals(nulls, page.nulls(), where + ": nulls");
        assertEquals(min == null, page.nullsOnly(), where + ": nulls only");
        if (min == null) {
            assertNull(page.min(), where);
        } else {
            assertEquals(min, page.min(), where + ": min");
            assertEquals(max, page.max(), where + ": max");
        }
    }
}
