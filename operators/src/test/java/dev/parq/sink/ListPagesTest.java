package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.parq.schema.TableSchema;
import dev.parq.testing.DuckDb;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ARRAYs of primitives, whose pages are built from the Arrow buffers with repetition levels from
 * the list offsets: null, empty and long lists, null elements, strings with few values
 * (dictionary, falling back to plain within a column chunk once {@code t} has only new values) and
 * numbers (plain), and an ARRAY inside a ROW. Values, chunk and page statistics are checked with
 * small and large pages, in one row group and in many.
 */
class ListPagesTest {

    private static final RowType ROW_TYPE = TableSchema.parse(
            "t ARRAY<STRING>, n ARRAY<BIGINT>, r ROW<u ARRAY<STRING>>").rowType();
    private static final int ROWS = 100_000;
    private static final int BATCH = 4099;
    private static final String[] FEW = {"", "canary", "é", "✓ check", "😀", "a", "ab", "b", "ÿ", "Z z"};

    @TempDir
    Path dir;

    /** The list of column {@code column} in row {@code g}, null for a null list or one under a null ROW. */
    private static List<Object> list(int column, int g) {
        switch (column) {
            case 0:
                return t(g);
            case 1:
                return n(g);
            default:
                return u(g);
        }
    }

    private static List<Object> t(int g) {
        if (g < 21_000 || g % 17 == 3) {
            return null;
        }
        int size = g % 1000 == 7 ? 300 : g % 17 == 5 ? 0 : g % 7;
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            list.add((g + i) % 13 == 0 ? null : g < 50_000 ? FEW[(g * 3 + i) % FEW.length] : "new " + g + "-" + i);
        }
        return list;
    }

    private static List<Object> n(int g) {
        if (g % 11 == 4) {
            return null;
        }
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < g % 4; i++) {
            list.add(i == 2 ? null : g * 10L - 300_000 + i);
        }
        return list;
    }

    private static boolean rNull(int g) {
        return g % 9 == 0;
    }

    private static List<Object> u(int g) {
        if (rNull(g) || g % 9 == 1) {
            return null;
        }
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < g % 3; i++) {
            list.add(FEW[(g + i) % FEW.length]);
        }
        return list;
    }

    private Path write(int pageSize, long rowGroupSize) throws Exception {
        ParquetWriterOptions options =
                ParquetWriterOptions.defaults().withPageSize(pageSize).withRowGroupSize(rowGroupSize);
        return TestFiles.write(dir.resolve("lists.parquet"), ROW_TYPE, options, ROWS, BATCH, ListPagesTest::fill);
    }

    private static void fill(VectorSchemaRoot root, int first, int count) {
        StructVector r = (StructVector) root.getVector("r");
        ListVector[] lists = {(ListVector) root.getVector("t"), (ListVector) root.getVector("n"),
            (ListVector) r.getChild("u")};
        int[] elementCounts = new int[lists.length];
        for (int row = 0; row < count; row++) {
            int g = first + row;
            int at = row;
            TestFiles.setOrNull(r, row, rNull(g), () -> r.setIndexDefined(at));
            for (int column = 0; column < lists.length; column++) {
                List<Object> values = list(column, g);
                if (values == null) {
                    lists[column].setNull(row);
                    continue;
                }
                int start = lists[column].startNewValue(row);
                for (int i = 0; i < values.size(); i++) {
                    setElement(lists[column].getDataVector(), start + i, values.get(i));
                }
                lists[column].endValue(row, values.size());
                elementCounts[column] = start + values.size();
            }
        }
        for (int column = 0; column < lists.length; column++) {
            lists[column].getDataVector().setValueCount(elementCounts[column]);
        }
    }

    private static void setElement(FieldVector elements, int index, Object value) {
        if (elements instanceof VarCharVector) {
            TestFiles.setString((VarCharVector) elements, index, (String) value);
        } else {
            BigIntVector numbers = (BigIntVector) elements;
            TestFiles.setOrNull(numbers, index, value == null, () -> numbers.setSafe(index, (Long) value));
        }
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 65536"})
    void listsReadBack(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        int[] g = {0};
        int read = DuckDb.forEachRow("SELECT t, n, r IS NULL, struct_extract(r, 'u') FROM read_parquet("
                + DuckDb.literal(file) + ", file_row_number = true) ORDER BY file_row_number", rs -> checkRow(rs, g[0]++));
        assertEquals(ROWS, read);
        Map<String, List<String>> encodings = DuckDb.chunkEncodings(file);
        assertTrue(DuckDb.fellBackInAChunk(encodings.get("t, list, element")),
                "t should fall back to plain within a column chunk, is written " + encodings.get("t, list, element"));
        assertTrue(encodings.get("r, u, list, element").stream().allMatch(chunk -> chunk.contains("DICTIONARY")),
                "r.u is written " + encodings.get("r, u, list, element"));
        assertTrue(rowGroupSize > 1024 * 1024 || DuckDb.rowGroupCount(file) > 3, "expected several row groups");
    }

    private static void checkRow(ResultSet rs, int g) throws SQLException {
        String where = "row " + g;
        assertEquals(t(g), elements(rs.getArray(1)), where + ": t");
        assertEquals(n(g), elements(rs.getArray(2)), where + ": n");
        assertEquals(rNull(g), rs.getBoolean(3), where + ": r is null");
        assertEquals(u(g), elements(rs.getArray(4)), where + ": r.u");
    }

    private static List<Object> elements(Array array) throws SQLException {
        return array == null ? null : Arrays.asList((Object[]) array.getArray());
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 65536"})
    void chunkAndPageStatisticsAgreeWithTheValues(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        String[] paths = {"t, list, element", "n, list, element", "r, u, list, element"};
        for (int column = 0; column < paths.length; column++) {
            List<PageIndexes.Page> pages = PageIndexes.pages(file, column);
            assertTrue(pageSize > 4096 || pages.size() > 5, "expected many pages, got " + pages.size());
            for (PageIndexes.Page page : pages) {
                expected(column, page.first(), page.end())
                        .check(page, paths[column] + ", page of rows " + page.first() + " to " + page.end());
            }
            int column0 = column;
            long[] groupFirst = {0};
            DuckDb.forEachRow("SELECT row_group_num_rows, stats_null_count, stats_min_value, stats_max_value"
                    + " FROM parquet_metadata(" + DuckDb.literal(file) + ") WHERE path_in_schema = '" + paths[column]
                    + "' ORDER BY row_group_id", rs -> {
                        int first = (int) groupFirst[0];
                        int end = first + rs.getInt(1);
                        groupFirst[0] = end;
                        ExpectedStatistics expected = expected(column0, first, end);
                        String where = paths[column0] + ", row group of rows " + first + " to " + end;
                        assertEquals(expected.nulls(), rs.getLong(2), where + ": nulls");
                        assertEquals(expected.minText(), rs.getString(3), where + ": min");
                        assertEquals(expected.maxText(), rs.getString(4), where + ": max");
                    });
            assertEquals(ROWS, groupFirst[0]);
        }
    }

    /** Statistics of a column over some rows: null and empty lists and null elements count as nulls. */
    private static ExpectedStatistics expected(int column, int first, int end) {
        ExpectedStatistics expected = new ExpectedStatistics();
        for (int g = first; g < end; g++) {
            List<Object> values = list(column, g);
            if (values == null || values.isEmpty()) {
                expected.add(null);
            } else {
                values.forEach(expected::add);
            }
        }
        return expected;
    }
}
