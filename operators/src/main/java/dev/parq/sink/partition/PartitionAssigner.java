package dev.parq.sink.partition;

import dev.parq.batch.ArrowBatch;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;

/**
 * The file sink's bucket of a batch: its partition's folders, which {@link BatchPartitioner} set,
 * or the output directory itself for unpartitioned output. Each batch is counted as written to
 * its partition, for {@link PartFileRolling}'s cap on the files open.
 */
public final class PartitionAssigner implements BucketAssigner<ArrowBatch, String> {
    private static final long serialVersionUID = 1L;

    private final OpenPartitions open;

    PartitionAssigner(OpenPartitions open) {
        this.open = open;
    }

    @Override
    public String getBucketId(ArrowBatch batch, Context context) {
        String bucket = batch.partition() == null ? "" : batch.partition();
        open.written(bucket);
        return bucket;
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
        return SimpleVersionedStringSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "PartitionAssigner";
    }
}
