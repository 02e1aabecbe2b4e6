package dev.parq.sink;

import java.util.ArrayList;
import java.util.List;

import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.SchemaException;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The mapping from parq's column types to a Parquet schema, mirroring
 * {@link dev.parq.batch.ArrowSchemas}: every column is optional, timestamps keep the unit their
 * Arrow vector has, TIMESTAMP_LTZ is adjusted to UTC, ARRAY and MAP use the standard three-level
 * LIST and MAP layouts so that every reader understands them.
 */
public final class ParquetSchemas {

    public static final String MESSAGE_NAME = "parq";
    private static final String LIST_REPEATED = "list";
    private static final String LIST_ELEMENT = "element";
    private static final String MAP_REPEATED = "key_value";
    private static final String MAP_KEY = "key";
    private static final String MAP_VALUE = "value";

    private ParquetSchemas() {}

    public static MessageType toParquet(RowType row) {
        return new MessageType(MESSAGE_NAME, fields(row));
    }

    private static List<Type> fields(RowType row) {
        List<Type> fields = new ArrayList<>(row.getFieldCount());
        for (RowType.RowField f : row.getFields()) {
            fields.add(toType(f.getName(), f.getType()));
        }
        return fields;
    }

    static Type toType(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case ROW:
                return Types.optionalGroup().addFields(fields((RowType) type).toArray(new Type[0])).named(name);
            case ARRAY:
                return Types.optionalGroup()
                        .as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeatedGroup()
                                .addField(toType(LIST_ELEMENT, ((ArrayType) type).getElementType()))
                                .named(LIST_REPEATED))
                        .named(name);
            case MAP:
                return Types.optionalGroup()
                        .as(LogicalTypeAnnotation.mapType())
                        .addField(Types.repeatedGroup()
                                .addField(Types.required(PrimitiveTypeName.BINARY)
                                        .as(LogicalTypeAnnotation.stringType())
                                        .named(MAP_KEY))
                                .addField(toType(MAP_VALUE, ((MapType) type).getValueType()))
                                .named(MAP_REPEATED))
                        .named(name);
            default:
                return primitive(name, type);
        }
    }

    private static Type primitive(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case TINYINT:
                return Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(8, true)).named(name);
            case SMALLINT:
                return Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(16, true)).named(name);
            case INTEGER:
                return Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(32, true)).named(name);
            case BIGINT:
                return Types.optional(PrimitiveTypeName.INT64).named(name);
            case FLOAT:
                return Types.optional(PrimitiveTypeName.FLOAT).named(name);
            case DOUBLE:
                return Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case DECIMAL:
                return decimal(name, (DecimalType) type);
            case CHAR:
            case VARCHAR:
                return Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(name);
            case DATE:
                return Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(name);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(name, ((TimestampType) type).getPrecision(), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(name, ((LocalZonedTimestampType) type).getPrecision(), true);
            default:
                throw new SchemaException(
                        "column '" + name + "': no Parquet type for " + type.asSummaryString());
        }
    }

    private static Type decimal(String name, DecimalType type) {
        int precision = type.getPrecision();
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(type.getScale(), precision);
        if (precision <= 9) {
            return Types.optional(PrimitiveTypeName.INT32).as(annotation).named(name);
        }
        if (precision <= 18) {
            return Types.optional(PrimitiveTypeName.INT64).as(annotation).named(name);
        }
        return Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                .length(decimalBytes(precision))
                .as(annotation)
                .named(name);
    }

    /** The fewest bytes whose two's complement holds every unscaled value of {@code precision} digits. */
    public static int decimalBytes(int precision) {
        int bytes = 1;
        while (Math.pow(2, 8 * bytes - 1) < Math.pow(10, precision)) {
            bytes++;
        }
        return bytes;
    }

    private static Type timestamp(String name, int precision, boolean adjustedToUtc) {
        return Types.optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(adjustedToUtc, timeUnit(precision)))
                .named(name);
    }

    /** The Parquet unit of a timestamp, the same as {@link dev.parq.batch.ArrowSchemas#timeUnit}. */
    static LogicalTypeAnnotation.TimeUnit timeUnit(int precision) {
        switch (dev.parq.batch.ArrowSchemas.timeUnit(precision)) {
            case MILLISECOND:
                return LogicalTypeAnnotation.TimeUnit.MILLIS;
            case MICROSECOND:
                return LogicalTypeAnnotation.TimeUnit.MICROS;
            default:
                return LogicalTypeAnnotation.TimeUnit.NANOS;
        }
    }
}
