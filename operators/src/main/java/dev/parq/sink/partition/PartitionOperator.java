package dev.parq.sink.partition;

import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

import dev.parq.batch.ArrowBatch;

/**
 * The partition stage, chained between the parser and the Parquet writer: each batch goes on as
 * batches of one partition each (see {@link BatchPartitioner}), with the columns the files store.
 *
 * <p>With event time on (ingest with a time partition), it also emits the watermark the partition
 * commit waits for: the latest time seen in the first time level's column. A task that has had no
 * rows for {@link #IDLE_AFTER_MS} declares itself idle, so that a reader without files to follow
 * does not hold back every partition's commit; its next rows make it active again.
 */
public final class PartitionOperator extends AbstractStreamOperator<ArrowBatch>
        implements OneInputStreamOperator<ArrowBatch, ArrowBatch>, ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;

    static final long IDLE_AFTER_MS = 5_000;

    private final PartitionSpec spec;
    private final boolean eventTime;
    private transient BatchPartitioner partitioner;
    private transient StreamRecord<ArrowBatch> record;
    private transient long watermark;
    private transient long lastRowsAt;
    private transient boolean idle;

    public PartitionOperator(PartitionSpec spec, boolean eventTime) {
        this.spec = spec;
        this.eventTime = eventTime && spec.timeLevel().isPresent();
    }

    @Override
    public void open() throws Exception {
        super.open();
        partitioner = new BatchPartitioner(spec);
        record = new StreamRecord<>(null);
        watermark = Long.MIN_VALUE;
        if (eventTime) {
            lastRowsAt = getProcessingTimeService().getCurrentProcessingTime();
            getProcessingTimeService().registerTimer(lastRowsAt + IDLE_AFTER_MS, this);
        }
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        partitioner.partition(element.getValue(), batch -> output.collect(record.replace(batch)));
        if (eventTime && element.getValue().rowCount() > 0) {
            lastRowsAt = getProcessingTimeService().getCurrentProcessingTime();
            if (idle) {
                idle = false;
                output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
            }
            long latest = partitioner.latestEventMillis();
            if (latest > watermark) {
                watermark = latest;
                output.emitWatermark(new Watermark(latest));
            }
        }
    }

    /** The source emits no watermarks of its own: only this stage knows the rows' times. */
    @Override
    public void processWatermark(Watermark mark) {
        if (!eventTime || mark.getTimestamp() == Long.MAX_VALUE) {
            output.emitWatermark(mark);
        }
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        if (!eventTime) {
            super.processWatermarkStatus(status);
        }
    }

    @Override
    public void onProcessingTime(long time) {
        if (!idle && time - lastRowsAt >= IDLE_AFTER_MS) {
            idle = true;
            output.emitWatermarkStatus(WatermarkStatus.IDLE);
        }
        getProcessingTimeService().registerTimer(time + IDLE_AFTER_MS / 5, this);
    }
}
