package dev.parq.sink.column;

import dev.parq.sink.ParquetSchemas;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * MAP in the standard layout: the MAP group repeats a {@code key_value} group per entry with a
 * required {@code key} and an optional {@code value}.
 */
final class MapWriter implements ArrowColumnWriter {

    private final MapVector vector;
    private final ArrowColumnWriter key;
    private final ArrowColumnWriter value;

    MapWriter(MapVector vector, ArrowColumnWriter key, ArrowColumnWriter value) {
        this.vector = vector;
        this.key = key;
        this.value = value;
    }

    @Override
    public boolean isNull(int row) {
        return vector.isNull(row);
    }

    @Override
    public void write(RecordConsumer out, int row) {
        int start = vector.getElementStartIndex(row);
        int end = vector.getElementEndIndex(row);
        out.startGroup();
        if (end > start) {
            out.startField(ParquetSchemas.MAP_REPEATED, 0);
            for (int i = start; i < end; i++) {
                if (key.isNull(i)) {
                    throw new IllegalStateException(
                            "MAP entry " + (i - start) + " of row " + row + " in column '" + vector.getName()
                                    + "' has a null key; Parquet map keys are required");
                }
                out.startGroup();
                out.startField(ParquetSchemas.MAP_KEY, 0);
                key.write(out, i);
                out.endField(ParquetSchemas.MAP_KEY, 0);
                if (!value.isNull(i)) {
                    out.startField(ParquetSchemas.MAP_VALUE, 1);
                    value.write(out, i);
                    out.endField(ParquetSchemas.MAP_VALUE, 1);
                }
                out.endGroup();
            }
            out.endField(ParquetSchemas.MAP_REPEATED, 0);
        }
        out.endGroup();
    }
}
