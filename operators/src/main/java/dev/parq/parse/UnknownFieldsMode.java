package dev.parq.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import dev.parq.schema.SchemaException;

/** What becomes of the keys of a line that are not in the schema; they are counted either way. */
public enum UnknownFieldsMode {
    /** Skipped with their values. */
    DROP,
    /**
     * Kept in the column {@link #COLUMN}: per row, each unknown key's path (as the manifest spells it)
     * to its value's JSON text exactly as in the line. Keys inside arrays and maps are counted only:
     * their paths do not say which element they came from.
     */
    KEEP;

    /** The column that {@link #KEEP} adds after the schema's columns. */
    public static final String COLUMN = "_unknown";

    public static UnknownFieldsMode parse(String value) {
        for (UnknownFieldsMode mode : values()) {
            if (mode.name().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--unknown-fields must be drop or keep, got '" + value + "'");
    }

    /**
     * The columns a batch has for lines of {@code schema}: the schema's, and with {@link #KEEP}
     * {@link #COLUMN} as {@code MAP<STRING, STRING>} after them.
     *
     * @throws SchemaException with {@link #KEEP}, if the schema has a column of that name already
     */
    public RowType outputType(RowType schema) {
        if (this == DROP) {
            return schema;
        }
        check(schema);
        List<RowType.RowField> fields = new ArrayList<>(schema.getFields());
        fields.add(new RowType.RowField(COLUMN,
                new MapType(new VarCharType(false, VarCharType.MAX_LENGTH), VarCharType.STRING_TYPE)));
        return new RowType(fields);
    }

    /** @throws SchemaException with {@link #KEEP}, if the schema has a column {@link #COLUMN} */
    public void check(RowType schema) {
        if (this == KEEP && schema.getFieldNames().contains(COLUMN)) {
            throw new SchemaException("the schema has a column '" + COLUMN + "', which --unknown-fields keep"
                    + " adds for the keys not in the schema: rename the column, or leave --unknown-fields at drop");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
