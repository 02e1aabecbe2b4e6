package dev.parq.sink;

import java.io.IOException;
import java.util.Map;

import dev.parq.sink.column.ArrowColumnWriters;
import dev.parq.sink.column.FieldsWriter;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Parquet-mr's record-wise path: each row is walked through the column writers into a
 * {@link RecordConsumer}, which assembles the levels. Handles every type, nested ones included.
 */
final class RecordWiseFileWriter implements BatchFileWriter {

    private final RowType rowType;
    private final RowIndexWriteSupport support;
    private final ParquetWriter<Integer> writer;

    RecordWiseFileWriter(
            OutputFile file, RowType rowType, MessageType schema, Map<String, String> metadata,
            ParquetWriterOptions options) throws IOException {
        this.rowType = rowType;
        this.support = new RowIndexWriteSupport(schema, metadata);
        this.writer = new Builder(file, support)
                .withCompressionCodec(options.compression().codec())
                .withRowGroupSize(options.rowGroupSize())
                .withPageSize(options.pageSize())
                .withDictionaryPageSize(options.pageSize())
                .withDictionaryEncoding(options.dictionary())
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .build();
    }

    @Override
    public void bind(VectorSchemaRoot root) {
        support.fields = ArrowColumnWriters.forFields(rowType, root.getFieldVectors());
    }

    @Override
    public void write(int rows) throws IOException {
        for (int row = 0; row < rows; row++) {
            writer.write(row);
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    /** A record is the index of a row in the bound vectors. */
    private static final class RowIndexWriteSupport extends WriteSupport<Integer> {
        private final MessageType schema;
        private final Map<String, String> metadata;
        private RecordConsumer out;
        private FieldsWriter fields;

        RowIndexWriteSupport(MessageType schema, Map<String, String> metadata) {
            this.schema = schema;
            this.metadata = metadata;
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, metadata);
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(Integer row) {
            out.startMessage();
            fields.write(out, row);
            out.endMessage();
        }
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
