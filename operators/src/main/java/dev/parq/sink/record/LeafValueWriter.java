package dev.parq.sink.record;

import org.apache.parquet.column.ColumnWriter;

/**
 * Writes the values of one primitive Arrow vector into its Parquet column chunk. There is one
 * implementation per Arrow type; nested types are {@link ColumnStriper} steps above these, and
 * {@link ColumnStripers} builds both.
 *
 * <p>Writers read the vector they were built on every time, so refilling that vector between
 * batches needs no new writer.
 */
interface LeafValueWriter {

    boolean isNull(int row);

    /** Writes the value at {@code row}, which is not null, into {@code column} with the given levels. */
    void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel);
}
