package dev.parq.batch;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The record that flows from the parse operator to a sink: a batch of rows in Arrow vectors, and
 * the byte range of the input they were parsed from.
 *
 * <p>A batch covers one contiguous range {@code [firstOffset, endOffset)} of one file and holds
 * the rows of that range in file order (bad and blank lines in it are not rows). The ranges of
 * different batches never overlap, so ordering the batches of all parsers by file and
 * {@code firstOffset} orders the rows as in the input.
 *
 * <p>Ownership: the producer keeps the vectors and refills them for its next batch once the
 * downstream call returns. Parse and sink are chained in one task, so a consumer must finish with
 * a batch (write it, or copy what it needs) before it returns.
 */
public final class ArrowBatch {

    private final VectorSchemaRoot root;
    private final String file;
    private final long firstOffset;
    private final long endOffset;
    /** Per row, the byte offset of its line in {@link #file}; null where the producer does not keep them. */
    private final long[] rowOffsets;
    /** The partition folder of every row of the batch, relative to the output; null for unpartitioned output. */
    private final String partition;

    public ArrowBatch(VectorSchemaRoot root, String file, long firstOffset, long endOffset) {
        this(root, file, firstOffset, endOffset, null);
    }

    /** With the byte offset of each row's line, which the producer keeps (and reuses) with the vectors. */
    public ArrowBatch(VectorSchemaRoot root, String file, long firstOffset, long endOffset, long[] rowOffsets) {
        this(root, file, firstOffset, endOffset, rowOffsets, null);
    }

    private ArrowBatch(VectorSchemaRoot root, String file, long firstOffset, long endOffset, long[] rowOffsets,
            String partition) {
        this.root = root;
        this.file = file;
        this.firstOffset = firstOffset;
        this.endOffset = endOffset;
        this.rowOffsets = rowOffsets;
        this.partition = partition;
    }

    /** This batch's rows, all of one partition, in {@code root}: the same rows in the same order. */
    public ArrowBatch inPartition(String partition, VectorSchemaRoot root) {
        return new ArrowBatch(root, file, firstOffset, endOffset, rowOffsets, partition);
    }

    /**
     * Some of this batch's rows, all of one partition, in {@code root}: those numbered
     * {@code rows[from]} to {@code rows[to - 1]}, in that order, whose line offsets go with them.
     */
    public ArrowBatch inPartition(String partition, VectorSchemaRoot root, int[] rows, int from, int to) {
        long[] offsets = null;
        if (rowOffsets != null) {
            offsets = new long[to - from];
            for (int i = from; i < to; i++) {
                offsets[i - from] = rowOffset(rows[i]);
            }
        }
        return new ArrowBatch(root, file, firstOffset, endOffset, offsets, partition);
    }

    /** The partition folder of all the batch's rows, relative to the output, or null if the output has none. */
    public String partition() {
        return partition;
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

    /** The byte offset in {@link #file()} where the batch's range starts: its first row, or a bad line before it. */
    public long firstOffset() {
        return firstOffset;
    }

    /**
     * The byte offset in {@link #file()} of the line of row {@code row}; where the producer kept
     * no offsets, that of the batch's range.
     */
    public long rowOffset(int row) {
        return rowOffsets == null || row < 0 || row >= rowOffsets.length ? firstOffset : rowOffsets[row];
    }

    /** The byte offset in {@link #file()} just past the batch's range. */
    public long endOffset() {
        return endOffset;
    }

    @Override
    public String toString() {
        return "ArrowBatch{" + rowCount() + " rows from " + file + " [" + firstOffset + ", " + endOffset + ")"
                + (partition == null ? "" : " in " + partition) + "}";
    }
}
