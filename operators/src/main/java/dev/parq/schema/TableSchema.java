package dev.parq.schema;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * The columns of a conversion, written and read in Flink SQL type syntax: a column list such as
 * {@code id BIGINT, user ROW<id BIGINT, name STRING>, ts TIMESTAMP_LTZ(3)}.
 *
 * <p>Parsing is Flink's own {@link LogicalTypeParser}, applied to the list wrapped in
 * {@code ROW<...>}; this class only checks what parq cannot store.
 */
public final class TableSchema {

    private static final String WRAPPER = "ROW<";
    private static final Pattern POSITION = Pattern.compile("position (\\d+)");
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final RowType rowType;

    private TableSchema(RowType rowType) {
        this.rowType = rowType;
    }

    public static TableSchema of(RowType rowType) {
        checkSupported(rowType, "");
        return new TableSchema(rowType);
    }

    /**
     * Parses a column list.
     *
     * @throws SchemaException naming what is wrong with the list
     */
    public static TableSchema parse(String columns) {
        String trimmed = columns == null ? "" : columns.trim();
        if (trimmed.isEmpty()) {
            throw new SchemaException("the schema is empty: give at least one column, e.g. 'id BIGINT'");
        }
        LogicalType parsed;
        try {
            parsed = LogicalTypeParser.parse(WRAPPER + trimmed + ">", TableSchema.class.getClassLoader());
        } catch (ValidationException e) {
            throw new SchemaException(
                    "cannot parse the schema '" + trimmed + "': " + describe(rootMessage(e))
                            + " (a column named like a type keyword, such as day or date, needs back-quotes:"
                            + " `day` DATE)",
                    e);
        }
        return of((RowType) parsed);
    }

    public RowType rowType() {
        return rowType;
    }

    public List<String> columnNames() {
        return rowType.getFieldNames();
    }

    /** The column list in the syntax {@link #parse} reads. */
    public String toDdl() {
        return fieldsDdl(rowType);
    }

    private static String fieldsDdl(RowType row) {
        return row.getFields().stream()
                .map(f -> quote(f.getName()) + " " + typeDdl(f.getType()))
                .collect(Collectors.joining(", "));
    }

    private static String typeDdl(LogicalType type) {
        String nullability = type.isNullable() ? "" : " NOT NULL";
        switch (type.getTypeRoot()) {
            case ROW:
                return "ROW<" + fieldsDdl((RowType) type) + ">" + nullability;
            case ARRAY:
                return "ARRAY<" + typeDdl(((ArrayType) type).getElementType()) + ">" + nullability;
            case MAP:
                MapType map = (MapType) type;
                return "MAP<" + typeDdl(map.getKeyType()) + ", " + typeDdl(map.getValueType()) + ">"
                        + nullability;
            default:
                return type.asSummaryString();
        }
    }

    /** Names that are not plain identifiers, or that clash with a type keyword, are back-quoted. */
    static String quote(String name) {
        if (PLAIN_NAME.matcher(name).matches() && !Keywords.isReserved(name)) {
            return name;
        }
        return "`" + name.replace("`", "``") + "`";
    }

    private static void checkSupported(LogicalType type, String path) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case DECIMAL:
            case CHAR:
            case VARCHAR:
            case DATE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return;
            case ROW:
                RowType row = (RowType) type;
                if (row.getFieldCount() == 0) {
                    throw new SchemaException("column '" + path + "' is a ROW without fields");
                }
                for (RowType.RowField field : row.getFields()) {
                    checkSupported(field.getType(), path.isEmpty() ? field.getName() : path + "." + field.getName());
                }
                return;
            case ARRAY:
                checkSupported(((ArrayType) type).getElementType(), path + "[]");
                return;
            case MAP:
                MapType map = (MapType) type;
                LogicalType key = map.getKeyType();
                if (key.getTypeRoot() != org.apache.flink.table.types.logical.LogicalTypeRoot.VARCHAR
                        && key.getTypeRoot() != org.apache.flink.table.types.logical.LogicalTypeRoot.CHAR) {
                    throw new SchemaException(
                            "column '" + path + "': MAP keys must be STRING (JSON object keys), found "
                                    + key.asSummaryString());
                }
                checkSupported(map.getValueType(), path + "{}");
                return;
            default:
                throw new SchemaException(
                        "column '" + path + "' has type " + type.asSummaryString()
                                + ", which parq does not convert; supported: BOOLEAN, TINYINT, SMALLINT,"
                                + " INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING/VARCHAR, DATE,"
                                + " TIMESTAMP(p), TIMESTAMP_LTZ(p), ROW<...>, ARRAY<...>, MAP<STRING, ...>");
        }
    }

    /** Flink's message, with its position made relative to the user's text and its echo dropped. */
    private static String describe(String flinkMessage) {
        String firstLine = flinkMessage.lines().findFirst().orElse(flinkMessage);
        Matcher position = POSITION.matcher(firstLine);
        if (position.find()) {
            int inUserText = Math.max(0, Integer.parseInt(position.group(1)) - WRAPPER.length());
            firstLine = position.replaceFirst("position " + inUserText);
        }
        return firstLine;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableSchema && ((TableSchema) o).rowType.equals(rowType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowType);
    }

    @Override
    public String toString() {
        return toDdl();
    }
}
