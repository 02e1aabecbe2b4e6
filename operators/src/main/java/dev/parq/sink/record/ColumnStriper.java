package dev.parq.sink.record;

import org.apache.parquet.column.ColumnWriter;

/**
 * One step on the path from a top-level column down to one Parquet leaf column: writes the leaf
 * values found under one Arrow value, with the repetition and definition levels that record where
 * nulls, empty lists and list boundaries are (Dremel striping). A leaf column's path is a chain of
 * these, one per nested type, ending in a {@link LeafValueWriter}.
 */
public interface ColumnStriper {

    /**
     * Writes the leaf values under the value at {@code index} of this step's vector.
     *
     * @param repetitionLevel the level of the first value written; later values in lists use
     *     their list's own level
     * @param definitionLevel how many optional or repeated fields above this one are present
     */
    void write(ColumnWriter column, int index, int repetitionLevel, int definitionLevel);
}
