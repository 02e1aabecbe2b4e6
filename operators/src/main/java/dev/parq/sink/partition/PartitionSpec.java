package dev.parq.sink.partition;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The partition folders of an output, nested in the order given: each level a time transform of a
 * column, whose folder is {@code COL_day=2024-03-01} and whose column stays in the files, or a
 * column's value, whose folder is {@code COL=value} and which the files then leave out (the folder
 * holds it), as Hive and Spark lay tables out.
 */
public final class PartitionSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    /** How a column's value becomes a folder. */
    public enum Transform {
        YEAR, MONTH, DAY, HOUR, VALUE;

        String spelled() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One level: {@code transform(column)}, its folders named {@code key=...}. */
    public record Level(Transform transform, String column, int columnIndex, LogicalType type, String key)
            implements Serializable {

        /** As written in {@code --partition-by}. */
        public String expression() {
            return transform == Transform.VALUE ? column : transform.spelled() + "(" + column + ")";
        }
    }

    private static final Pattern TRANSFORM = Pattern.compile("(?i)(year|month|day|hour)\\s*\\((.*)\\)");
    private static final Set<LogicalTypeRoot> TIME_ROOTS = Set.of(LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE, LogicalTypeRoot.DATE);
    private static final Set<LogicalTypeRoot> VALUE_ROOTS = Set.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER,
            LogicalTypeRoot.BIGINT, LogicalTypeRoot.DECIMAL, LogicalTypeRoot.DATE);

    private final List<Level> levels;
    private final RowType rowType;
    private final RowType fileType;
    private final String zone;

    private PartitionSpec(List<Level> levels, RowType rowType, RowType fileType, ZoneId zone) {
        this.levels = List.copyOf(levels);
        this.rowType = rowType;
        this.fileType = fileType;
        this.zone = zone.getId();
    }

    /**
     * The partitions {@code expressions} ({@code day(ts),level}) make of rows of {@code rowType},
     * with time transforms of TIMESTAMP_LTZ columns taken in {@code zone}.
     *
     * @throws IllegalArgumentException naming the expression that names no column of
     *     {@code rowType}, a column of a type it cannot take, or a folder twice
     */
    public static PartitionSpec parse(String expressions, RowType rowType, ZoneId zone) {
        List<Level> levels = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        Set<Integer> valueColumns = new HashSet<>();
        for (String written : expressions.split(",", -1)) {
            Level level = level(written.trim(), rowType);
            if (!keys.add(level.key())) {
                throw new IllegalArgumentException("--partition-by: '" + level.expression()
                        + "' makes the folders " + level.key() + "=... twice");
            }
            if (level.transform() != Transform.VALUE && rowType.getFieldNames().contains(level.key())) {
                throw new IllegalArgumentException("--partition-by: '" + level.expression() + "' makes folders "
                        + level.key() + "=..., and a column of that name would read as the folder's value;"
                        + " rename the column in --schema");
            }
            if (level.transform() == Transform.VALUE) {
                valueColumns.add(level.columnIndex());
            }
            levels.add(level);
        }
        List<RowType.RowField> kept = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            if (!valueColumns.contains(i)) {
                kept.add(rowType.getFields().get(i));
            }
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("--partition-by: every column would be a folder, which leaves the"
                    + " Parquet files no column");
        }
        return new PartitionSpec(levels, rowType, new RowType(kept), zone);
    }

    private static Level level(String written, RowType rowType) {
        if (written.isEmpty()) {
            throw new IllegalArgumentException("--partition-by: an empty expression; expected e.g. 'day(ts),level'");
        }
        Matcher transform = TRANSFORM.matcher(written);
        Transform kind = transform.matches()
                ? Transform.valueOf(transform.group(1).toUpperCase(Locale.ROOT)) : Transform.VALUE;
        String column = unquoted(kind == Transform.VALUE ? written : transform.group(2).trim());
        int index = rowType.getFieldIndex(column);
        if (index < 0) {
            throw new IllegalArgumentException("--partition-by: '" + written + "' names no column of the schema"
                    + (column.contains(".") ? " (partitions take top-level columns)" : "") + "; its columns: "
                    + columnList(rowType));
        }
        LogicalType type = rowType.getTypeAt(index);
        LogicalTypeRoot root = type.getTypeRoot();
        if (kind == Transform.VALUE && !VALUE_ROOTS.contains(root)) {
            throw new IllegalArgumentException("--partition-by: column '" + column + "' is "
                    + type.asSummaryString() + ": a folder per value takes STRING, BOOLEAN, an integer, DECIMAL or"
                    + " DATE" + (TIME_ROOTS.contains(root) ? "; for timestamps use day(" + column + ") or hour("
                    + column + ")" : ""));
        }
        if (kind != Transform.VALUE && !TIME_ROOTS.contains(root)) {
            throw new IllegalArgumentException("--partition-by: '" + written + "': column '" + column + "' is "
                    + type.asSummaryString() + ", and " + kind.spelled() + "() takes a TIMESTAMP, TIMESTAMP_LTZ or"
                    + " DATE column");
        }
        if (kind == Transform.HOUR && root == LogicalTypeRoot.DATE) {
            throw new IllegalArgumentException("--partition-by: '" + written + "': column '" + column
                    + "' is a DATE, which has no hour; use day(" + column + ")");
        }
        String key = kind == Transform.VALUE ? column : column + "_" + kind.spelled();
        return new Level(kind, column, index, type, key);
    }

    private static String unquoted(String name) {
        return name.length() >= 2 && name.startsWith("`") && name.endsWith("`")
                ? name.substring(1, name.length() - 1).replace("``", "`") : name;
    }

    private static String columnList(RowType rowType) {
        List<String> names = rowType.getFieldNames();
        String shown = names.stream().limit(12).collect(Collectors.joining(", "));
        return names.size() > 12 ? shown + " and " + (names.size() - 12) + " more" : shown;
    }

    public List<Level> levels() {
        return levels;
    }

    /** The rows' type, partition columns included. */
    public RowType rowType() {
        return rowType;
    }

    /** The type of the rows as stored in the files: without the columns whose values are folders. */
    public RowType fileType() {
        return fileType;
    }

    public ZoneId zone() {
        return ZoneId.of(zone);
    }

    /** The first level that is a time transform, whose periods end as event time passes. */
    public Optional<Level> timeLevel() {
        return levels.stream().filter(l -> l.transform() != Transform.VALUE).findFirst();
    }

    /**
     * When the period of a partition's time level ends, in epoch milliseconds (a TIMESTAMP's or
     * DATE's local time read as UTC): empty for output without time levels and for the default
     * partition of rows without a time.
     */
    public OptionalLong endMillis(String partition) {
        Optional<Level> time = timeLevel();
        if (time.isEmpty()) {
            return OptionalLong.empty();
        }
        String prefix = HivePaths.escape(time.get().key()) + "=";
        for (String folder : partition.split("/")) {
            if (folder.startsWith(prefix)) {
                return TimeLevel.endMillis(time.get(), zone(), folder.substring(prefix.length()));
            }
        }
        return OptionalLong.empty();
    }

    /** As written in {@code --partition-by}. */
    @Override
    public String toString() {
        return levels.stream().map(Level::expression).collect(Collectors.joining(","));
    }
}
