package dev.parq.sink.record;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.parq.schema.SchemaException;
import dev.parq.sink.ParquetSchemas;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds, for vectors laid out by {@link dev.parq.batch.ArrowSchemas}, the chain that writes each
 * Parquet leaf column: a {@link ColumnStriper} step per nested type ending in the
 * {@link LeafValueWriter} of the leaf's Arrow type.
 */
public final class ColumnStripers {

    private ColumnStripers() {}

    /**
     * One striper per Parquet leaf column of {@code row}, in the schema's leaf order (depth first,
     * MAP key before value), over vectors in the row's field order.
     */
    public static List<ColumnStriper> of(RowType row, List<? extends ValueVector> vectors) {
        if (vectors.size() != row.getFieldCount()) {
            throw new SchemaException("expected " + row.getFieldCount() + " vectors for " + row.asSummaryString()
                    + ", got " + vectors.size());
        }
        List<ColumnStriper> stripers = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            collectStripers(vectors.get(i), row.getTypeAt(i), 0, leaf -> leaf, stripers);
        }
        return stripers;
    }

    /**
     * Adds the stripers of every leaf under {@code vector}; {@code above} wraps a striper of this
     * vector into the chain of the steps above it.
     */
    private static void collectStripers(ValueVector vector, LogicalType type, int repetitionLevel,
            UnaryOperator<ColumnStriper> above, List<ColumnStriper> out) {
        switch (type.getTypeRoot()) {
            case ROW: {
                StructVector struct = expect(vector, StructVector.class, type);
                RowType row = (RowType) type;
                List<FieldVector> children = struct.getChildrenFromFields();
                for (int i = 0; i < children.size(); i++) {
                    collectStripers(children.get(i), row.getTypeAt(i), repetitionLevel,
                            child -> above.apply(new StructStriper(struct, child)), out);
                }
                return;
            }
            case ARRAY: {
                ListVector list = expect(vector, ListVector.class, type);
                int level = repetitionLevel + 1;
                collectStripers(list.getDataVector(), ((ArrayType) type).getElementType(), level,
                        element -> above.apply(new RepeatedStriper(list, element, level)), out);
                return;
            }
            case MAP: {
                MapVector map = expect(vector, MapVector.class, type);
                List<FieldVector> keyValue = expect(map.getDataVector(), StructVector.class, type)
                        .getChildrenFromFields();
                int level = repetitionLevel + 1;
                LeafValueWriter key = forLeaf(keyValue.get(0), ((MapType) type).getKeyType());
                out.add(above.apply(new RepeatedStriper(map, LeafStriper.mapKey(key, map.getName()), level)));
                collectStripers(keyValue.get(1), ((MapType) type).getValueType(), level,
                        value -> above.apply(new RepeatedStriper(map, value, level)), out);
                return;
            }
            default:
                out.add(above.apply(LeafStriper.optional(forLeaf(vector, type))));
        }
    }

    private static LeafValueWriter forLeaf(ValueVector vector, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanValueWriter(expect(vector, BitVector.class, type));
            case TINYINT:
                return new Int8ValueWriter(expect(vector, TinyIntVector.class, type));
            case SMALLINT:
                return new Int16ValueWriter(expect(vector, SmallIntVector.class, type));
            case INTEGER:
                return new Int32ValueWriter(expect(vector, IntVector.class, type));
            case DATE:
                return new Int32ValueWriter(expect(vector, DateDayVector.class, type));
            case BIGINT:
                return new Int64ValueWriter(expect(vector, BigIntVector.class, type));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new Int64ValueWriter((BaseFixedWidthVector) expect(vector, TimeStampVector.class, type));
            case FLOAT:
                return new FloatValueWriter(expect(vector, Float4Vector.class, type));
            case DOUBLE:
                return new DoubleValueWriter(expect(vector, Float8Vector.class, type));
            case DECIMAL: {
                int precision = ((DecimalType) type).getPrecision();
                return DecimalValueWriter.of(
                        expect(vector, DecimalVector.class, type), precision, ParquetSchemas.decimalBytes(precision));
            }
            case CHAR:
            case VARCHAR:
                return new StringValueWriter(expect(vector, VarCharVector.class, type));
            default:
                throw new SchemaException("no Parquet writer for " + type.asSummaryString());
        }
    }

    private static <V> V expect(ValueVector vector, Class<V> vectorClass, LogicalType type) {
        if (!vectorClass.isInstance(vector)) {
            throw new SchemaException("column '" + vector.getName() + "' of type " + type.asSummaryString()
                    + " needs a " + vectorClass.getSimpleName() + ", got " + vector.getClass().getSimpleName());
        }
        return vectorClass.cast(vector);
    }
}
