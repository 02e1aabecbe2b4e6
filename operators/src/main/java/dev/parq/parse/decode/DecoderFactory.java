package dev.parq.parse.decode;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

import dev.parq.json.ByteScan;
import dev.parq.json.Tokenizer;

/** Builds the decoder tree for a schema over the vectors that {@code ArrowSchemas} laid out for it. */
public final class DecoderFactory {

    private DecoderFactory() {}

    /**
     * Whether the inline path may take this schema's lines: their values nest as deep as the
     * schema, and the values of unknown keys up to {@link ByteScan#MAX_SKIP_DEPTH} levels deeper,
     * which must stay within the tokenizer's limit so that the inline path accepts nothing the
     * tokenizer would reject for its depth.
     */
    public static boolean inlineSuits(RowType schema) {
        return containerDepth(schema) + ByteScan.MAX_SKIP_DEPTH <= Tokenizer.MAX_DEPTH;
    }

    /** How many JSON containers a value of this type nests, itself included. */
    private static int containerDepth(LogicalType type) {
        int children = 0;
        for (LogicalType child : type.getChildren()) {
            children = Math.max(children, containerDepth(child));
        }
        switch (type.getTypeRoot()) {
            case ROW:
            case ARRAY:
            case MAP:
            case MULTISET:
                return 1 + children;
            default:
                return children;
        }
    }

    /**
     * The decoder of whole lines: one object whose fields are the root's first columns, one per
     * field of {@code schema}; a column the root has after them is not a key of the line.
     */
    public static StructDecoder forRoot(RowType schema, VectorSchemaRoot root, UnknownKeys unknownKeys) {
        List<FieldVector> vectors = root.getFieldVectors();
        return struct(null, schema, vectors, "", unknownKeys, unknownKeys.keepsValues());
    }

    /**
     * keepsValues: whether this object's unknown keys are kept with their values; only outside
     * arrays and maps, where a path names one value of the line.
     */
    private static StructDecoder struct(StructVector vector, RowType row, List<FieldVector> children, String path,
            UnknownKeys unknownKeys, boolean keepsValues) {
        List<Decoder> fields = new ArrayList<>(row.getFieldCount());
        for (int i = 0; i < row.getFieldCount(); i++) {
            RowType.RowField field = row.getFields().get(i);
            fields.add(create(field.getType(), children.get(i), FieldPath.child(path, field.getName()), unknownKeys,
                    keepsValues));
        }
        return new StructDecoder(vector, row.getFieldNames(), fields, path, unknownKeys, keepsValues);
    }

    private static Decoder create(LogicalType type, FieldVector vector, String path, UnknownKeys unknownKeys,
            boolean keepsValues) {
        String typeName = type.copy(true).asSummaryString();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanDecoder((BitVector) vector, path);
            case TINYINT:
                return new IntDecoder((BaseFixedWidthVector) vector, 8, "TINYINT", path);
            case SMALLINT:
                return new IntDecoder((BaseFixedWidthVector) vector, 16, "SMALLINT", path);
            case INTEGER:
                return new IntDecoder((BaseFixedWidthVector) vector, 32, "INT", path);
            case BIGINT:
                return new IntDecoder((BaseFixedWidthVector) vector, 64, "BIGINT", path);
            case FLOAT:
                return new FloatDecoder((Float4Vector) vector, path);
            case DOUBLE:
                return new DoubleDecoder((Float8Vector) vector, path);
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                return new DecimalDecoder((DecimalVector) vector, decimal.getPrecision(), decimal.getScale(), path);
            }
            case CHAR:
            case VARCHAR:
                return new StringDecoder((VarCharVector) vector);
            case DATE:
                return new DateDecoder((DateDayVector) vector, path);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                ArrowType.Timestamp arrow = (ArrowType.Timestamp) vector.getField().getType();
                int precision = type instanceof TimestampType
                        ? ((TimestampType) type).getPrecision() : ((LocalZonedTimestampType) type).getPrecision();
                return new TimestampDecoder((TimeStampVector) vector, arrow.getUnit(), precision,
                        arrow.getTimezone() != null, typeName, path);
            }
            case ROW: {
                StructVector struct = (StructVector) vector;
                return struct(struct, (RowType) type, struct.getChildrenFromFields(), path, unknownKeys, keepsValues);
            }
            case ARRAY: {
                ListVector list = (ListVector) vector;
                Decoder element = create(((ArrayType) type).getElementType(), list.getDataVector(), path + "[]",
                        unknownKeys, false);
                return new ListDecoder(list, element, typeName, path);
            }
            case MAP: {
                MapVector map = (MapVector) vector;
                List<FieldVector> entry = ((StructVector) map.getDataVector()).getChildrenFromFields();
                StringDecoder keys = new StringDecoder((VarCharVector) entry.get(0));
                Decoder values = create(((MapType) type).getValueType(), entry.get(1), path + "{}", unknownKeys,
                        false);
                return new MapDecoder(map, keys, values, typeName, path);
            }
            default:
                throw new IllegalArgumentException("no decoder for " + typeName + " at '" + path + "'");
        }
    }
}
