package dev.parq.batch;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

import dev.parq.schema.SchemaException;

/**
 * The one mapping from parq's column types to Arrow, shared by the parser (which fills the
 * vectors) and the Parquet sink (which reads them).
 *
 * <ul>
 *   <li>TIMESTAMP(p) and TIMESTAMP_LTZ(p) become Arrow timestamps in milliseconds for p &le; 3,
 *       microseconds for p &le; 6 and nanoseconds above; LTZ carries the time zone "UTC" and holds
 *       the instant.
 *   <li>DECIMAL(p, s) is a 128-bit Arrow decimal; ARRAY is a list with child "element"; MAP is an
 *       Arrow map with non-null STRING keys.
 *   <li>Every column and nested field is nullable: a missing key or {@code null} is null.
 * </ul>
 */
public final class ArrowSchemas {

    public static final String LIST_ELEMENT = "element";
    public static final String MAP_ENTRIES = "entries";
    public static final String MAP_KEY = "key";
    public static final String MAP_VALUE = "value";

    private ArrowSchemas() {}

    public static Schema toArrow(RowType row) {
        List<Field> fields = new ArrayList<>(row.getFieldCount());
        for (RowType.RowField f : row.getFields()) {
            fields.add(toField(f.getName(), f.getType()));
        }
        return new Schema(fields);
    }

    public static Field toField(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case ROW: {
                RowType row = (RowType) type;
                List<Field> children = new ArrayList<>(row.getFieldCount());
                for (RowType.RowField f : row.getFields()) {
                    children.add(toField(f.getName(), f.getType()));
                }
                return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), children);
            }
            case ARRAY: {
                Field element = toField(LIST_ELEMENT, ((ArrayType) type).getElementType());
                return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
            }
            case MAP: {
                MapType map = (MapType) type;
                Field key = new Field(MAP_KEY, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
                Field value = toField(MAP_VALUE, map.getValueType());
                Field entries = new Field(
                        MAP_ENTRIES, FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
                return new Field(name, FieldType.nullable(new ArrowType.Map(false)), List.of(entries));
            }
            default:
                return new Field(name, FieldType.nullable(scalar(type)), null);
        }
    }

    private static ArrowType scalar(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
                return new ArrowType.Int(32, true);
            case BIGINT:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
            }
            case CHAR:
            case VARCHAR:
                return ArrowType.Utf8.INSTANCE;
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new ArrowType.Timestamp(timeUnit(((TimestampType) type).getPrecision()), null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowType.Timestamp(
                        timeUnit(((LocalZonedTimestampType) type).getPrecision()), "UTC");
            default:
                throw new SchemaException("no Arrow type for " + type.asSummaryString());
        }
    }

    /** The Arrow unit that holds a timestamp of the given fractional-second precision. */
    public static TimeUnit timeUnit(int precision) {
        if (precision <= 3) {
            return TimeUnit.MILLISECOND;
        }
        if (precision <= 6) {
            return TimeUnit.MICROSECOND;
        }
        return TimeUnit.NANOSECOND;
    }
}
