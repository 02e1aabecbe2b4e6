package dev.parq.sink.column;

import java.util.ArrayList;
import java.util.List;

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

/** Picks the writer for each column type, given the vector that {@link dev.parq.schema.ArrowSchemas} laid out for it. */
public final class ArrowColumnWriters {

    private ArrowColumnWriters() {}

    /** The writers of a row's fields, over vectors in the row's field order. */
    public static FieldsWriter forFields(RowType row, List<? extends ValueVector> vectors) {
        if (vectors.size() != row.getFieldCount()) {
            throw new SchemaException("expected " + row.getFieldCount() + " vectors for " + row.asSummaryString()
                    + ", got " + vectors.size());
        }
        List<ArrowColumnWriter> writers = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            writers.add(forVector(vectors.get(i), row.getTypeAt(i)));
        }
        return new FieldsWriter(row.getFieldNames(), writers);
    }

    public static ArrowColumnWriter forVector(ValueVector vector, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanWriter(expect(vector, BitVector.class, type));
            case TINYINT:
                return new Int8Writer(expect(vector, TinyIntVector.class, type));
            case SMALLINT:
                return new Int16Writer(expect(vector, SmallIntVector.class, type));
            case INTEGER:
                return new Int32Writer(expect(vector, IntVector.class, type));
            case DATE:
                return new Int32Writer(expect(vector, DateDayVector.class, type));
            case BIGINT:
                return new Int64Writer(expect(vector, BigIntVector.class, type));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new Int64Writer((BaseFixedWidthVector) expect(vector, TimeStampVector.class, type));
            case FLOAT:
                return new FloatWriter(expect(vector, Float4Vector.class, type));
            case DOUBLE:
                return new DoubleWriter(expect(vector, Float8Vector.class, type));
            case DECIMAL: {
                int precision = ((DecimalType) type).getPrecision();
                return DecimalWriter.of(
                        expect(vector, DecimalVector.class, type), precision, ParquetSchemas.decimalBytes(precision));
            }
            case CHAR:
            case VARCHAR:
                return new StringWriter(expect(vector, VarCharVector.class, type));
            case ROW: {
                StructVector struct = expect(vector, StructVector.class, type);
                return new StructWriter(struct, forFields((RowType) type, struct.getChildrenFromFields()));
            }
            case ARRAY: {
                ListVector list = expect(vector, ListVector.class, type);
                return new ListWriter(list, forVector(list.getDataVector(), ((ArrayType) type).getElementType()));
            }
            case MAP: {
                MapVector map = expect(vector, MapVector.class, type);
                StructVector entries = expect(map.getDataVector(), StructVector.class, type);
                List<FieldVector> keyValue = entries.getChildrenFromFields();
                return new MapWriter(
                        map,
                        forVector(keyValue.get(0), ((MapType) type).getKeyType()),
                        forVector(keyValue.get(1), ((MapType) type).getValueType()));
            }
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
