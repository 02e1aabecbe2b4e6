package dev.parq.sink.record;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.column.ColumnWriter;

/** An optional ROW: its child at the same index, one definition level deeper. */
final class StructStriper implements ColumnStriper {

    private final StructVector vector;
    private final ColumnStriper child;

    StructStriper(StructVector vector, ColumnStriper child) {
        this.vector = vector;
        this.child = child;
    }

    @Override
    public void write(ColumnWriter column, int index, int repetitionLevel, int definitionLevel) {
        if (vector.isNull(index)) {
            column.writeNull(repetitionLevel, definitionLevel);
        } else {
            child.write(column, index, repetitionLevel, definitionLevel + 1);
        }
    }
}
