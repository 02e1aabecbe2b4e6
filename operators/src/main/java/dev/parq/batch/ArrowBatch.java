package dev.parq.batch;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The record that flows from the parse operator to the Parquet sink: a batch of rows in Arrow
 * vectors, and where in the input its first row came from.
 *
 * <p>Ownership: the producer keeps the vectors and refills them for its next batch once the
 * downstream call returns. Parse and sink are chained in one task, so a consumer must finish with
 * a batch (write it, or copy what it needs) before it returns.
 */
public final class ArrowBatch {

    private final VectorSchemaRoot root;
    private final String file;
    private final long firstOffset;

    public ArrowBatch(VectorSchemaRoot root, String file, long firstOffset) {
        this.root = root;
        this.file = file;
        this.firstOffset = firstOffset;
    }

    public VectorSchemaRoot root() {
        return root;
    }

    public int rowCount() {
        return root.getRowCount();
    }

    /** The input file of the batch's first row. */
    public String file() {
        return file;
    }

    /** The byte offset of the batch's first row in {@link #file()}. */
    public long firstOffset() {
        return firstOffset;
    }

    @Override
    public String toString() {
        return "ArrowBatch{" + rowCount() + " rows from " + file + "@" + firstOffset + "}";
    }
}
