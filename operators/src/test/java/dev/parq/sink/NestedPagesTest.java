package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import dev.parq.schema.TableSchema;
import dev.parq.testing.DuckDb;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Leaf columns under ROWs, whose pages are built from the Arrow buffers with definition levels
 * taken from the validity of every ROW on the way: strings with few values (dictionary), numbers
 * (plain), a ROW inside a ROW, each level null on its own pattern (a first stretch of null parents
 * gives pages of nulls only), and a rarely present ROW whose string outgrows its dictionary. Values
 * and nulls at each level, chunk and page statistics are checked with small and large pages, in
 * one row group and in many.
 */
class NestedPagesTest {

    private static final RowType ROW_TYPE = TableSchema.parse(
            "o ROW<s STRING, n BIGINT, b BOOLEAN, `inner` ROW<d STRING, x DOUBLE, k BIGINT>>, p ROW<f STRING>").rowType();
    private static final int ROWS = 100_000;
    private static final int BATCH = 4099;
    private static final String[] FEW = {"", "INFO", "é", "✓ check", "😀", "a", "ab", "b", "ÿ", "Z z"};

    @TempDir
    Path dir;

    private static boolean oNull(int g) {
        return g < 21_000 || g % 7 == 3;
    }

    private static boolean innerNull(int g) {
        return oNull(g) || g % 5 == 1 || (g >= 30_000 && g < 32_000);
    }

    private static boolean pNull(int g) {
        return g % 20 != 0;
    }

    private static String s(int g) {
        return oNull(g) || g % 11 == 4 ? null : FEW[Integer.remainderUnsigned(g * 0x9E3779B1, FEW.length)];
    }

    private static Long n(int g) {
        return oNull(g) || g % 9 == 2 ? null : g * 31L - 50_000;
    }

    private static Boolean b(int g) {
        return oNull(g) || g % 6 == 1 ? null : g % 3 == 0;
    }

    private static Long k(int g) {
        return innerNull(g) || g % 8 == 3 ? null : (g % 5 - 2) * 1_000_000_007L;
    }

    private static String d(int g) {
        return innerNull(g) || g % 3 == 0 ? null : FEW[(g / 50) % FEW.length];
    }

    private static Double x(int g) {
        return innerNull(g) || g % 4 == 1 ? null : g / 7.0 - 1000;
    }

    private static String f(int g) {
        return pNull(g) || g % 60 == 0 ? null : g < 50_000 ? FEW[g % 4] : "new " + g + " " + "x".repeat(g % 40);
    }

    /** A leaf column: how DuckDB names it and reads it, and its value in each row. */
    private record Leaf(String path, String expression, String sqlType, IntFunction<Object> value) {}

    private static final List<Leaf> LEAVES = List.of(
            new Leaf("o, s", "struct_extract(o, 's')", "VARCHAR", NestedPagesTest::s),
            new Leaf("o, n", "struct_extract(o, 'n')", "BIGINT", NestedPagesTest::n),
            new Leaf("o, b", "struct_extract(o, 'b')", "BOOLEAN", NestedPagesTest::b),
            new Leaf("o, inner, d", "struct_extract(struct_extract(o, 'inner'), 'd')", "VARCHAR", NestedPagesTest::d),
            new Leaf("o, inner, x", "struct_extract(struct_extract(o, 'inner'), 'x')", "DOUBLE", NestedPagesTest::x),
            new Leaf("o, inner, k", "struct_extract(struct_extract(o, 'inner'), 'k')", "BIGINT", NestedPagesTest::k),
            new Leaf("p, f", "struct_extract(p, 'f')", "VARCHAR", NestedPagesTest::f));

    private Path write(int pageSize, long rowGroupSize) throws Exception {
        ParquetWriterOptions options =
                ParquetWriterOptions.defaults().withPageSize(pageSize).withRowGroupSize(rowGroupSize);
        return TestFiles.write(dir.resolve("nested.parquet"), ROW_TYPE, options, ROWS, BATCH, NestedPagesTest::fill);
    }

    private static void fill(VectorSchemaRoot root, int first, int count) {
        StructVector o = (StructVector) root.getVector("o");
        StructVector inner = (StructVector) o.getChild("inner");
        StructVector p = (StructVector) root.getVector("p");
        for (int r = 0; r < count; r++) {
            int g = first + r;
            setStruct(o, r, oNull(g));
            setStruct(inner, r, innerNull(g));
            setStruct(p, r, pNull(g));
            int row = r;
            TestFiles.setString((VarCharVector) o.getChild("s"), r, s(g));
            BigIntVector n = (BigIntVector) o.getChild("n");
            TestFiles.setOrNull(n, r, n(g) == null, () -> n.setSafe(row, n(g)));
            TestFiles.setString((VarCharVector) inner.getChild("d"), r, d(g));
            Float8Vector x = (Float8Vector) inner.getChild("x");
            TestFiles.setOrNull(x, r, x(g) == null, () -> x.setSafe(row, x(g)));
            BitVector b = (BitVector) o.getChild("b");
            TestFiles.setOrNull(b, r, b(g) == null, () -> b.setSafe(row, b(g) ? 1 : 0));
            BigIntVector k = (BigIntVector) inner.getChild("k");
            TestFiles.setOrNull(k, r, k(g) == null, () -> k.setSafe(row, k(g)));
            TestFiles.setString((VarCharVector) p.getChild("f"), r, f(g));
        }
    }

    private static void setStruct(StructVector vector, int row, boolean isNull) {
        TestFiles.setOrNull(vector, row, isNull, () -> vector.setIndexDefined(row));
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 262144"})
    void valuesAndNullParentsReadBack(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        StringBuilder select = new StringBuilder("SELECT o IS NULL, struct_extract(o, 'inner') IS NULL, p IS NULL");
        for (Leaf leaf : LEAVES) {
            select.append(", ").append(leaf.expression());
        }
        int[] g = {0};
        int read = DuckDb.forEachRow(select + " FROM read_parquet(" + DuckDb.literal(file)
                + ", file_row_number = true) ORDER BY file_row_number", rs -> checkRow(rs, g[0]++));
        assertEquals(ROWS, read);
        Map<String, List<String>> encodings = DuckDb.chunkEncodings(file);
        for (String dictionary : new String[] {"o, s", "o, inner, d", "o, inner, k", "p, f"}) {
            assertTrue(encodings.get(dictionary).stream().anyMatch(chunk -> chunk.contains("DICTIONARY")),
                    dictionary + " is written " + encodings.get(dictionary));
        }
        assertTrue(pageSize > 4096 || DuckDb.fellBackInAChunk(encodings.get("p, f")),
                "p.f should fall back to plain within a column chunk, is written " + encodings.get("p, f"));
        assertTrue(rowGroupSize > 1024 * 1024 || DuckDb.rowGroupCount(file) > 3, "expected several row groups");
    }

    private static void checkRow(ResultSet rs, int g) throws SQLException {
        String where = "row " + g;
        assertEquals(oNull(g), rs.getBoolean(1), where + ": o is null");
        assertEquals(innerNull(g), rs.getBoolean(2), where + ": o.inner is null");
        assertEquals(pNull(g), rs.getBoolean(3), where + ": p is null");
        for (int i = 0; i < LEAVES.size(); i++) {
            Leaf leaf = LEAVES.get(i);
            Object expected = leaf.value().apply(g);
            Object actual = rs.getObject(4 + i);
            assertEquals(expected, actual, where + ": " + leaf.path());
        }
    }

    @ParameterizedTest
    @CsvSource({"1048576, 134217728", "1024, 134217728", "1024, 262144"})
    void chunkStatisticsAgreeWithTheValues(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (Leaf leaf : LEAVES) {
            assertEquals(0, DuckDb.rowGroupsWithWrongStatistics(file, leaf.path(), leaf.expression(), leaf.sqlType()),
                    "row groups with wrong statistics of " + leaf.path());
        }
    }

    @ParameterizedTest
    @CsvSource({"1024, 134217728", "1024, 262144"})
    void pageStatisticsAgreeWithThePageRows(int pageSize, long rowGroupSize) throws Exception {
        Path file = write(pageSize, rowGroupSize);

        for (int column = 0; column < LEAVES.size(); column++) {
            List<PageIndexes.Page> pages = PageIndexes.pages(file, column);
            assertTrue(pages.size() > 5, "expected many pages, got " + pages.size());
            for (PageIndexes.Page page : pages) {
                checkPage(LEAVES.get(column), page);
            }
        }
    }

    private static void checkPage(Leaf leaf, PageIndexes.Page page) {
        ExpectedStatistics expected = new ExpectedStatistics();
        for (int g = page.first(); g < page.end(); g++) {
            expected.add(leaf.value().apply(g));
        }
        expected.check(page, leaf.path() + ", page of rows " + page.first() + " to " + page.end());
    }
}
