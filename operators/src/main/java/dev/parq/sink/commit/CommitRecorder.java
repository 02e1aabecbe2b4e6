package dev.parq.sink.commit;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * After the file sink's committers: records the newest checkpoint any of them committed (one is
 * enough: restoring an older checkpoint would commit that one's files again). Runs as one task;
 * also reports the checkpoint as the metric {@link #LAST_COMMITTED}.
 */
public final class CommitRecorder extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<CommittableMessage<FileSinkCommittable>, Void> {

    /** The metric of the newest checkpoint committed. */
    public static final String LAST_COMMITTED = "lastCommittedCheckpoint";

    private static final long serialVersionUID = 1L;

    private final String output;
    private transient CommitRecord record;
    private transient volatile long recorded;

    CommitRecorder(Path output) {
        this.output = output.toString();
    }

    @Override
    public void open() throws Exception {
        super.open();
        record = new CommitRecord(new Path(output));
        Long before = record.read();
        recorded = before == null ? 0 : before;
        getMetricGroup().gauge(LAST_COMMITTED, () -> recorded);
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<FileSinkCommittable>> element) throws Exception {
        if (element.getValue() instanceof CommittableSummary<FileSinkCommittable> summary
                && summary.getCheckpointIdOrEOI() != CommittableMessage.EOI
                && summary.getCheckpointId() > recorded) {
            record.write(summary.getCheckpointId());
            recorded = summary.getCheckpointId();
        }
    }
}
