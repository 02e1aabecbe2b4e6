package dev.parq.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Parquet files back through an in-memory DuckDB (its JDBC driver, in-process), the
 * independent reader of the tests of every module.
 */
public final class DuckDb {

    /** The glob of an output's visible Parquet files. */
    public static final String VISIBLE_PARQUET = "[!._]*.parquet";

    public interface RowCheck {
        void check(ResultSet row) throws SQLException;
    }

    private DuckDb() {}

    /** {@code 'path'} as a SQL string literal. */
    public static String literal(Path file) {
        return "'" + file.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    /** Runs {@code sql} and hands every result row to {@code check}; returns the row count. */
    public static int forEachRow(String sql, RowCheck check) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int rows = 0;
            while (rs.next()) {
                check.check(rs);
                rows++;
            }
            return rows;
        }
    }

    public static long scalarLong(String sql) throws SQLException {
        long[] value = new long[1];
        forEachRow(sql, rs -> value[0] = rs.getLong(1));
        return value[0];
    }

    /** The first two columns of {@code sql}'s result as a map. */
    public static Map<String, String> pairs(String sql) throws SQLException {
        Map<String, String> pairs = new HashMap<>();
        forEachRow(sql, rs -> pairs.put(rs.getString(1), rs.getString(2)));
        return pairs;
    }

    /**
     * How many row groups of {@code file} have chunk statistics of leaf column {@code path} (as
     * {@code parquet_metadata} spells it) other than the minimum, maximum and null count of
     * {@code expression} over the row group's rows; every row group is compared.
     */
    public static long rowGroupsWithWrongStatistics(Path file, String path, String expression, String sqlType)
            throws SQLException {
        String source = literal(file);
        String sql = "WITH groups AS (SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(" + source
                + ")), bounds AS (SELECT row_group_id, sum(row_group_num_rows) OVER (ORDER BY row_group_id)"
                + " - row_group_num_rows AS first, sum(row_group_num_rows) OVER (ORDER BY row_group_id) AS last"
                + " FROM groups), actual AS (SELECT row_group_id, min(v) AS lo, max(v) AS hi,"
                + " count(*) - count(v) AS nulls FROM (SELECT file_row_number AS n, " + expression + " AS v"
                + " FROM read_parquet(" + source + ", file_row_number = true)) JOIN bounds ON n >= first AND n < last"
                + " GROUP BY row_group_id), stats AS (SELECT row_group_id, stats_min_value::" + sqlType + " AS lo,"
                + " stats_max_value::" + sqlType + " AS hi, stats_null_count AS nulls FROM parquet_metadata(" + source
                + ") WHERE path_in_schema = '" + path + "')"
                + " SELECT count(*) FILTER (WHERE a.lo IS DISTINCT FROM s.lo OR a.hi IS DISTINCT FROM s.hi"
                + " OR a.nulls IS DISTINCT FROM s.nulls) + (SELECT count(*) FROM groups) - count(*)"
                + " FROM actual a JOIN stats s USING (row_group_id)";
        return scalarLong(sql);
    }

    /** Each leaf column's path, as {@code parquet_metadata} spells it, to the encodings of each of its chunks. */
    public static Map<String, List<String>> chunkEncodings(Path file) throws SQLException {
        Map<String, List<String>> encodings = new HashMap<>();
        forEachRow("SELECT path_in_schema, encodings FROM parquet_metadata(" + literal(file) + ") ORDER BY row_group_id",
                rs -> encodings.computeIfAbsent(rs.getString(1), path -> new ArrayList<>()).add(rs.getString(2)));
        return encodings;
    }

    /** Whether one of the chunks {@link #chunkEncodings} lists has dictionary and plain pages both. */
    public static boolean fellBackInAChunk(List<String> chunkEncodings) {
        return chunkEncodings.stream().anyMatch(chunk -> chunk.contains("DICTIONARY") && chunk.matches(".*PLAIN(,.*|)$"));
    }

    public static long rowGroupCount(Path file) throws SQLException {
        return scalarLong("SELECT count(DISTINCT row_group_id) FROM parquet_metadata(" + literal(file) + ")");
    }

    public static List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        forEachRow(sql, rs -> values.add(rs.getString(1)));
        return values;
    }

    /** Every row of {@code sql}'s result, each as its column values in order. */
    public static List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> result = new ArrayList<>();
        forEachRow(sql, rs -> {
            ResultSetMetaData meta = rs.getMetaData();
            List<Object> row = new ArrayList<>(meta.getColumnCount());
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                row.add(rs.getObject(i));
            }
            result.add(row);
        });
        return result;
    }

    /**
     * The visible Parquet files of an output directory, as a DuckDB table expression: DuckDB's glob
     * {@code *} matches names that start with '.' or '_' too, such as ingest's hidden part files
     * that wait for compaction, which parq's readers pass over.
     */
    public static String parquet(Path outputDir) {
        return "read_parquet(" + literal(outputDir.resolve(VISIBLE_PARQUET)) + ")";
    }

    public static long count(String tableExpression) throws SQLException {
        return scalarLong("SELECT count(*) FROM " + tableExpression);
    }
}
