package dev.parq.sink;

import java.io.IOException;
import java.util.Map;

import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.SchemaException;
import dev.parq.schema.TableSchema;
import dev.parq.sink.file.ParquetFile;
import dev.parq.sink.plan.ColumnPlan;
import dev.parq.sink.rowgroup.RowGroupBudget;
import dev.parq.sink.rowgroup.RowGroupWriter;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Arrow batches laid out by {@link dev.parq.batch.ArrowSchemas} into one Parquet file.
 *
 * <p>Batches are written column by column, straight from the vectors, by a {@link RowGroupWriter}
 * that follows the file's {@link ColumnPlan} and takes its share of this JVM's
 * {@link RowGroupBudget}. {@link #write} is done with the batch when it returns, so the caller may
 * refill the vectors right after. {@link #close} writes the footer and closes the output file's
 * stream.
 */
public final class ArrowParquetWriter implements AutoCloseable {

    /** Key of the file metadata entry holding the column list in parq's schema syntax. */
    public static final String SCHEMA_METADATA_KEY = "parq.schema";

    private final Schema arrowSchema;
    private final ParquetFile file;
    private final RowGroupWriter rowGroups;
    private VectorSchemaRoot boundRoot;
    private long rowsWritten;
    private boolean closed;

    public ArrowParquetWriter(OutputFile out, RowType rowType, ParquetWriterOptions options) throws IOException {
        this.arrowSchema = ArrowSchemas.toArrow(rowType);
        MessageType schema = ParquetSchemas.toParquet(rowType);
        ColumnPlan plan = ColumnPlan.of(rowType, schema, options);
        Map<String, String> metadata = Map.of(SCHEMA_METADATA_KEY, TableSchema.of(rowType).toDdl());
        this.file = new ParquetFile(
                out, schema, plan.properties(), options.rowGroupSize(), options.compression(), metadata);
        this.rowGroups = new RowGroupWriter(file, plan, options, RowGroupBudget.jvm());
    }

    /** Writes every row of {@code batch}. */
    public void write(VectorSchemaRoot batch) throws IOException {
        if (closed) {
            throw new IllegalStateException("the Parquet file is already closed");
        }
        if (batch != boundRoot) {
            if (!batch.getSchema().equals(arrowSchema)) {
                throw new SchemaException(
                        "the batch's Arrow schema " + batch.getSchema() + " is not the sink's " + arrowSchema);
            }
            rowGroups.bind(batch);
            boundRoot = batch;
        }
        rowGroups.write(batch.getRowCount());
        rowsWritten += batch.getRowCount();
    }

    /** The first row of the part of the batch {@link #write} was writing when it failed, or -1. */
    public int rowBeingWritten() {
        return rowGroups.sliceStart();
    }

    public long rowsWritten() {
        return rowsWritten;
    }

    /**
     * Lets go of the writer's memory without writing the last row group or the footer: what was
     * written so far, and what its output buffers, is not a Parquet file.
     */
    public void discard() throws IOException {
        if (!closed) {
            closed = true;
            try {
                rowGroups.discard();
            } finally {
                file.release();
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            try {
                rowGroups.close();
                file.end();
            } finally {
                file.release();
            }
        }
    }
}
