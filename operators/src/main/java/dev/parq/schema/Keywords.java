package dev.parq.schema;

import java.util.Locale;
import java.util.Set;

/** Words that Flink's type parser reads as keywords; a column with such a name is back-quoted. */
final class Keywords {

    private static final Set<String> RESERVED = Set.of(
            "CHAR", "VARCHAR", "STRING", "BOOLEAN", "BINARY", "VARBINARY", "BYTES", "DECIMAL",
            "NUMERIC", "DEC", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE",
            "PRECISION", "DATE", "TIME", "WITH", "WITHOUT", "LOCAL", "ZONE", "TIMESTAMP",
            "TIMESTAMP_LTZ", "INTERVAL", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO",
            "ARRAY", "MULTISET", "MAP", "ROW", "NULL", "RAW", "LEGACY", "NOT", "DESCRIPTOR",
            "STRUCTURED", "VARIANT");

    private Keywords() {}

    static boolean isReserved(String name) {
        return RESERVED.contains(name.toUpperCase(Locale.ROOT));
    }
}
