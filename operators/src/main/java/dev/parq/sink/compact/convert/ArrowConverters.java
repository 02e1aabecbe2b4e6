package dev.parq.sink.compact.convert;

import java.util.List;

import dev.parq.schema.SchemaException;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.Converter;

/**
 * The converter of each vector of a batch laid out by {@link dev.parq.batch.ArrowSchemas}, for the
 * Parquet column {@link dev.parq.sink.ParquetSchemas} gives it: the two mappings mirror each other,
 * so the vector alone says how its column is read.
 */
final class ArrowConverters {

    private ArrowConverters() {}

    static Converter[] of(List<FieldVector> vectors, Cursor cursor, ByteCount bytes) {
        Converter[] converters = new Converter[vectors.size()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = of(vectors.get(i), cursor, bytes);
        }
        return converters;
    }

    static Converter of(ValueVector vector, Cursor cursor, ByteCount bytes) {
        if (vector instanceof BitVector bits) {
            return new BooleanConverter(bits, cursor, bytes);
        }
        if (vector instanceof DecimalVector decimals) {
            return new DecimalConverter(decimals, cursor, bytes);
        }
        if (vector instanceof BaseFixedWidthVector numbers) {
            return new FixedWidthConverter(numbers, cursor, bytes);
        }
        if (vector instanceof VarCharVector strings) {
            return new StringConverter(strings, cursor, bytes);
        }
        if (vector instanceof StructVector struct) {
            return new StructConverter(struct, cursor, bytes);
        }
        if (vector instanceof MapVector map) {
            return ListConverter.ofMap(map, cursor, bytes);
        }
        if (vector instanceof ListVector list) {
            return ListConverter.ofList(list, cursor, bytes);
        }
        throw new SchemaException("no Parquet column is read into the Arrow vector " + vector.getField());
    }
}
