package dev.parq.sink.partition;

import java.io.IOException;

import dev.parq.batch.ArrowBatch;
import org.apache.flink.streaming.api.functions.sink.filesystem.PartFileInfo;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.CheckpointRollingPolicy;

/**
 * When the file sink ends a part file: on every checkpoint (a bulk format can only be committed
 * whole), once the file is full (its size within the writer's slack of the target, the writer
 * having sized its row groups to fill it), and, past {@code maxOpen} partitions written to, for
 * the least recently written ones at the sink's next bucket check, so that few files are open at
 * once and a partition written again later gets a new file.
 *
 * <p>One instance serves all the buckets of one sink writer, in its task thread.
 */
public final class PartFileRolling extends CheckpointRollingPolicy<ArrowBatch, String> {
    private static final long serialVersionUID = 1L;

    private final long fullAt;
    private final OpenPartitions open;

    PartFileRolling(long targetFileSize, long slack, OpenPartitions open) {
        this.fullAt = Math.max(1, targetFileSize - slack);
        this.open = open;
    }

    @Override
    public boolean shouldRollOnEvent(PartFileInfo<String> part, ArrowBatch batch) throws IOException {
        return part.getSize() >= fullAt;
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileInfo<String> part, long now) {
        return open.takeEvicted(part.getBucketId());
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileInfo<String> part) {
        open.closed(part.getBucketId());
        return true;
    }
}
