package dev.parq.sink;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads Parquet files back through an in-memory DuckDB, the independent reader of the tests. */
final class DuckDb {

    interface RowCheck {
        void check(ResultSet row) throws SQLException;
    }

    private DuckDb() {}

    /** {@code 'path'} as a SQL string literal. */
    static String literal(Path file) {
        return "'" + file.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    /** Runs {@code sql} and hands every result row to {@code check}; returns the row count. */
    static int forEachRow(String sql, RowCheck check) throws SQLException {
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

    static long scalarLong(String sql) throws SQLException {
        long[] value = new long[1];
        forEachRow(sql, rs -> value[0] = rs.getLong(1));
        return value[0];
    }

    /** The first two columns of {@code sql}'s result as a map. */
    static Map<String, String> pairs(String sql) throws SQLException {
        Map<String, String> pairs = new HashMap<>();
        forEachRow(sql, rs -> pairs.put(rs.getString(1), rs.getString(2)));
        return pairs;
    }

    static List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        forEachRow(sql, rs -> values.add(rs.getString(1)));
        return values;
    }
}
