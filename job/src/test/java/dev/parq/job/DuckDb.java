package dev.parq.job;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** DuckDB (in-process, through its JDBC driver) as the independent reader of parq's Parquet files. */
final class DuckDb {

    private DuckDb() {}

    /** All Parquet files of an output directory, as a DuckDB table expression. */
    static String parquet(Path outputDir) {
        return "read_parquet('" + outputDir.resolve("*.parquet").toString().replace("'", "''") + "')";
    }

    static List<List<Object>> query(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            ResultSetMetaData meta = rows.getMetaData();
            List<List<Object>> result = new ArrayList<>();
            while (rows.next()) {
                List<Object> row = new ArrayList<>(meta.getColumnCount());
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(rows.getObject(i));
                }
                result.add(row);
            }
            return result;
        }
    }

    static long count(String tableExpression) throws SQLException {
        return ((Number) query("SELECT count(*) FROM " + tableExpression).get(0).get(0)).longValue();
    }
}
