package dev.parq.sink.compact.convert;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;

/**
 * Assembles Parquet records straight into the vectors of a batch: each record parquet-mr's record
 * reader hands over fills the next row, and the values of every column go into their vector as
 * they come (see {@link ArrowConverters}). There is no record object; {@link #getCurrentRecord}
 * only says that a row was read.
 */
public final class BatchMaterializer extends RecordMaterializer<BatchMaterializer> {

    private final Cursor rows = new Cursor();
    private final ByteCount bytes = new ByteCount();
    private final RepeatedConverter records;

    /** Fills the vectors of {@code root}, whose schema is the file's as {@link dev.parq.batch.ArrowSchemas} maps it. */
    public BatchMaterializer(VectorSchemaRoot root) {
        this.records = new RepeatedConverter(rows, ArrowConverters.of(root.getFieldVectors(), rows, bytes), null);
    }

    /** The next records go into the vectors from row 0 on; the vectors have been emptied. */
    public void startBatch() {
        rows.index = 0;
        bytes.bytes = 0;
    }

    /** The rows read since {@link #startBatch}. */
    public int rows() {
        return rows.index;
    }

    /** About how many bytes the values of those rows take in their vectors. */
    public long bytes() {
        return bytes.bytes;
    }

    @Override
    public BatchMaterializer getCurrentRecord() {
        return this;
    }

    @Override
    public GroupConverter getRootConverter() {
        return records;
    }
}
