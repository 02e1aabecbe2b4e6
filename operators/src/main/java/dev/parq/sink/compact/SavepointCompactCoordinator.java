package dev.parq.sink.compact;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.operator.CompactCoordinator;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.state.CheckpointStreamFactory;
import org.apache.flink.streaming.api.operators.OperatorSnapshotFutures;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;

/**
 * Flink's compaction coordinator, which also hands every part file waiting over to the compactors
 * at the barriers just after a savepoint and at the first after a backlog
 * ({@link CompactEverything}), whatever the size and interval.
 */
final class SavepointCompactCoordinator extends CompactCoordinator {

    private final CompactEverything compactEverything = new CompactEverything();

    SavepointCompactCoordinator(StreamOperatorParameters<CompactorRequest> parameters, FileCompactStrategy strategy,
            SimpleVersionedSerializer<FileSinkCommittable> committableSerializer) {
        super(parameters, strategy, committableSerializer);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        if (compactEverything.atBarrier()) {
            // What an end of input does: every bucket's files go out as requests, before the barrier.
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
