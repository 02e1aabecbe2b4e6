package dev.parq.sink.commit;

import java.util.List;

import javax.annotation.Nullable;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * After the file sink's committers: records the newest checkpoint any of them committed (one is
 * enough: restoring an older checkpoint would commit that one's files again), and, for time
 * partitions, makes their {@link PartitionCommits}. Runs as one task; also reports the checkpoint
 * as the metric {@link #LAST_COMMITTED}.
 */
public final class CommitRecorder extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<CommittableMessage<FileSinkCommittable>, Void> {

    /** The metric of the newest checkpoint committed. */
    public static final String LAST_COMMITTED = "lastCommittedCheckpoint";
    /**
     * The metric of the milliseconds since a checkpoint's files were last committed, or since this
     * task started if none has been since: an ingest whose commits stop shows it growing.
     */
    public static final String TIME_SINCE_COMMIT = "timeSinceLastCommit";

    private static final long serialVersionUID = 1L;

    private final String output;
    @Nullable
    private final PartitionCommits partitions;
    private transient CommitRecord record;
    private transient volatile long recorded;
    private transient volatile long committedAt;
    private transient long watermark;
    private transient ListState<String> pendingPartitions;
    private transient ListState<Long> watermarkState;

    CommitRecorder(Path output, @Nullable PartitionCommits partitions) {
        this.output = output.toString();
        this.partitions = partitions;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        watermark = Long.MIN_VALUE;
        if (partitions != null) {
            pendingPartitions = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>("pending-partitions", Types.STRING));
            partitions.open(pendingPartitions.get());
            // The event time of the checkpoint restored holds after it, until the readers are past it
            // again: every row it covers was committed with that checkpoint.
            watermarkState = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>("watermark", Types.LONG));
            for (Long restored : watermarkState.get()) {
                watermark = Math.max(watermark, restored);
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        record = new CommitRecord(new Path(output));
        Long before = record.read();
        recorded = before == null ? 0 : before;
        getMetricGroup().gauge(LAST_COMMITTED, () -> recorded);
        committedAt = System.currentTimeMillis();
        getMetricGroup().gauge(TIME_SINCE_COMMIT, () -> Math.max(0L, System.currentTimeMillis() - committedAt));
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<FileSinkCommittable>> element) throws Exception {
        CommittableMessage<FileSinkCommittable> message = element.getValue();
        if (message instanceof CommittableSummary<FileSinkCommittable> summary
                && summary.getCheckpointIdOrEOI() != CommittableMessage.EOI) {
            if (summary.getCheckpointId() > recorded) {
                record.write(summary.getCheckpointId());
                recorded = summary.getCheckpointId();
            }
            committedAt = System.currentTimeMillis();
        } else if (message instanceof CommittableWithLineage<FileSinkCommittable> committed && partitions != null
                && committed.getCheckpointIdOrEOI() != CommittableMessage.EOI) {
            partitions.committed(committed);
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        super.processWatermark(mark);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (partitions != null) {
            partitions.checkpoint(context.getCheckpointId(), watermark);
            pendingPartitions.update(List.copyOf(partitions.pending()));
            watermarkState.update(List.of(watermark));
        }
    }
}
