package dev.parq.sink;

import java.util.Map;

import dev.parq.schema.ArrowSchemas;
import dev.parq.schema.SchemaException;
import dev.parq.sink.column.ArrowColumnWriters;
import dev.parq.sink.column.FieldsWriter;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Parquet-mr's record-wise write path, where a record is the index of a row in the batch last
 * given to {@link #bind}.
 */
final class RowIndexWriteSupport extends WriteSupport<Integer> {

    private final RowType rowType;
    private final Schema arrowSchema;
    private final MessageType parquetSchema;
    private final Map<String, String> metadata;

    private RecordConsumer out;
    private VectorSchemaRoot boundRoot;
    private FieldsWriter fields;

    RowIndexWriteSupport(RowType rowType, MessageType parquetSchema, Map<String, String> metadata) {
        this.rowType = rowType;
        this.arrowSchema = ArrowSchemas.toArrow(rowType);
        this.parquetSchema = parquetSchema;
        this.metadata = metadata;
    }

    /** Points the writers at {@code root}'s vectors; a root already bound costs nothing. */
    void bind(VectorSchemaRoot root) {
        if (root == boundRoot) {
            return;
        }
        if (!root.getSchema().equals(arrowSchema)) {
            throw new SchemaException("the batch's Arrow schema " + root.getSchema()
                    + " is not the sink's " + arrowSchema);
        }
        fields = ArrowColumnWriters.forFields(rowType, root.getFieldVectors());
        boundRoot = root;
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(parquetSchema, metadata);
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
