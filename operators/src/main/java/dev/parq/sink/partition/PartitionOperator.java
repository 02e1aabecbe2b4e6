package dev.parq.sink.partition;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import dev.parq.batch.ArrowBatch;

/**
 * The partition stage, chained between the parser and the Parquet writer: each batch goes on as
 * batches of one partition each (see {@link BatchPartitioner}), with the columns the files store.
 */
public final class PartitionOperator extends AbstractStreamOperator<ArrowBatch>
        implements OneInputStreamOperator<ArrowBatch, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final PartitionSpec spec;
    private transient BatchPartitioner partitioner;
    private transient StreamRecord<ArrowBatch> record;

    public PartitionOperator(PartitionSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        partitioner = new BatchPartitioner(spec);
        record = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        partitioner.partition(element.getValue(), batch -> output.collect(record.replace(batch)));
    }
}
