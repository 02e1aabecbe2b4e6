package dev.parq.sink.record;

import org.apache.parquet.column.ColumnWriter;

/** The last step: an optional primitive field, or the required key of a MAP entry. */
final class LeafStriper implements ColumnStriper {

    private final LeafValueWriter leaf;
    private final String requiredIn;

    private LeafStriper(LeafValueWriter leaf, String requiredIn) {
        this.leaf = leaf;
        this.requiredIn = requiredIn;
    }

    static LeafStriper optional(LeafValueWriter leaf) {
        return new LeafStriper(leaf, null);
    }

    /** The key of the entries of MAP column {@code mapColumn}, which Parquet requires. */
    static LeafStriper mapKey(LeafValueWriter leaf, String mapColumn) {
        return new LeafStriper(leaf, mapColumn);
    }

    @Override
    public void write(ColumnWriter column, int index, int repetitionLevel, int definitionLevel) {
        if (requiredIn != null) {
            if (leaf.isNull(index)) {
                throw new IllegalStateException("MAP column '" + requiredIn + "' has a null key at entry index "
                        + index + "; Parquet map keys are required");
            }
            leaf.write(column, index, repetitionLevel, definitionLevel);
        } else if (leaf.isNull(index)) {
            column.writeNull(repetitionLevel, definitionLevel);
        } else {
            leaf.write(column, index, repetitionLevel, definitionLevel + 1);
        }
    }
}
