package dev.parq.sink.compact;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.FileCompactor;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorOperator;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.state.CheckpointStreamFactory;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketWriter;
import org.apache.flink.streaming.api.operators.OperatorSnapshotFutures;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;

/**
 * Flink's compactor, which at the barriers just after a savepoint and at the first after a
 * backlog ({@link CompactEverything}) compacts every request it holds before the barrier passes,
 * instead of after the checkpoint that holds the requests has completed, and sends the compacted
 * files on for the commit of that very checkpoint. A stop with a savepoint waits for that commit,
 * so its rows are visible when it ends; the rows of a catch-up are visible with the checkpoint
 * after its last line was read.
 *
 * <p>Compacting before the checkpoint completes is safe: the compacted file stays hidden until its
 * commit, which comes with the checkpoint; if that checkpoint fails, the restored requests are
 * compacted again and the hidden file is an orphan, as after a kill during any compaction.
 */
final class SavepointCompactorOperator extends CompactorOperator {

    private final CompactEverything compactEverything = new CompactEverything();

    SavepointCompactorOperator(StreamOperatorParameters<CommittableMessage<FileSinkCommittable>> parameters,
            FileCompactStrategy strategy, SimpleVersionedSerializer<FileSinkCommittable> committableSerializer,
            FileCompactor compactor, BucketWriter<?, String> bucketWriter) {
        super(parameters, strategy, committableSerializer, compactor, bucketWriter);
    }

    /**
     * At a barrier just after a savepoint or a backlog, first does what an end of input does:
     * compacts every request and waits for them, then emits the compacted files for the checkpoint after the last
     * barrier this operator passed. That is this checkpoint, or one aborted before it reached this
     * operator, which never completes: the committer commits them once this one does.
     */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        if (compactEverything.atBarrier()) {
            endInput();
        }
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void processRecordAttributes(RecordAttributes attributes) throws Exception {
        compactEverything.backlog(attributes.isBacklog());
        super.processRecordAttributes(attributes);
    }

    @Override
    public OperatorSnapshotFutures snapshotState(long checkpointId, long timestamp, CheckpointOptions options,
            CheckpointStreamFactory storage) throws Exception {
        compactEverything.snapshotting(options);
        return super.snapshotState(checkpointId, timestamp, options, storage);
    }
}
