package dev.parq.sink;

import java.io.IOException;
import java.util.Map;

import dev.parq.schema.TableSchema;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Arrow batches laid out by {@link dev.parq.schema.ArrowSchemas} into one Parquet file.
 *
 * <p>{@link #write} is done with the batch when it returns, so the caller may refill the vectors
 * right after. {@link #close} writes the footer.
 */
public final class ArrowParquetWriter implements AutoCloseable {

    /** Key of the file metadata entry holding the column list in parq's schema syntax. */
    public static final String SCHEMA_METADATA_KEY = "parq.schema";

    private final RowIndexWriteSupport support;
    private final ParquetWriter<Integer> writer;
    private long rowsWritten;

    public ArrowParquetWriter(OutputFile file, RowType rowType, ParquetWriterOptions options) throws IOException {
        MessageType schema = ParquetSchemas.toParquet(rowType);
        this.support = new RowIndexWriteSupport(
                rowType, schema, Map.of(SCHEMA_METADATA_KEY, TableSchema.of(rowType).toDdl()));
        this.writer = new Builder(file, support)
                .withCompressionCodec(options.compression().codec())
                .withRowGroupSize(options.rowGroupSize())
                .withPageSize(options.pageSize())
                .withDictionaryPageSize(options.pageSize())
                .withDictionaryEncoding(options.dictionary())
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .build();
    }

    /** Writes every row of {@code batch}. */
    public void write(VectorSchemaRoot batch) throws IOException {
        support.bind(batch);
        int rows = batch.getRowCount();
        for (int row = 0; row < rows; row++) {
            writer.write(row);
        }
        rowsWritten += rows;
    }

    public long rowsWritten() {
        return rowsWritten;
    }

    /** Flushes the last row group and writes the footer; closes the output file's stream. */
    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class Builder extends ParquetWriter.Builder<Integer, Builder> {
        private final RowIndexWriteSupport support;

        Builder(OutputFile file, RowIndexWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Integer> getWriteSupport(Configuration conf) {
            return support;
        }
    }
}
