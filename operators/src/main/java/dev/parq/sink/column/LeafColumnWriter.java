package dev.parq.sink.column;

import org.apache.parquet.column.ColumnWriter;

/**
 * A writer of a primitive Arrow vector, which can also write a value straight into its Parquet
 * column chunk with explicit levels: the column-wise path, which skips parquet-mr's record
 * assembly.
 */
public interface LeafColumnWriter extends ArrowColumnWriter {

    /** Writes the value at {@code row}, which is not null, into {@code column}. */
    void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel);
}
