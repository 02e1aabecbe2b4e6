package dev.parq.sink.column;

import org.apache.parquet.column.ColumnWriter;

/** The last step: an optional primitive field, or the required key of a MAP entry. */
final class LeafStriper implements ColumnStriper {

    private final ArrowColumnWriter leaf;
    private final boolean required;

    LeafStriper(ArrowColumnWriter leaf, boolean required) {
        this.leaf = leaf;
        this.required = required;
    }

    @Override
    public void write(ColumnWriter column, int index, int repetitionLevel, int definitionLevel) {
        if (required) {
            if (leaf.isNull(index)) {
                throw new IllegalStateException("a MAP entry at index " + index + " has a null key;"
                        + " Parquet map keys are required");
            }
            leaf.write(column, index, repetitionLevel, definitionLevel);
        } else if (leaf.isNull(index)) {
            column.writeNull(repetitionLevel, definitionLevel);
        } else {
            leaf.write(column, index, repetitionLevel, definitionLevel + 1);
        }
    }
}
