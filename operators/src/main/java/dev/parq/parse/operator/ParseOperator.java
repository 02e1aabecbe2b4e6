package dev.parq.parse.operator;

import java.nio.ByteBuffer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

import dev.parq.batch.ArrowBatch;
import dev.parq.config.TaskHeap;
import dev.parq.parse.BadLineException;
import dev.parq.parse.BatchParser;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.schema.TableSchema;
import dev.parq.source.reader.LineChunk;

/**
 * The parse stage: turns each chunk of lines into Arrow batches of up to {@code batchRows} rows
 * and emits every full batch downstream. A bad line fails the job or goes to the
 * {@link #REJECTED} side output as an NDJSON record, by {@link OnError}; a chunk that tells of a
 * damaged compressed file ({@link LineChunk#damage()}) goes there in either mode.
 *
 * <p>A batch holds the rows of one contiguous byte range of one file (see {@link ArrowBatch}): a
 * partly filled batch is emitted before a chunk that does not continue its range, such as the
 * next split this parser reads when it is not the adjacent one.
 *
 * <p>The batch's vectors are refilled after the chained sink returns (see {@link ArrowBatch}); a
 * partly filled batch is emitted at the end of the input and before each checkpoint barrier, so
 * that a checkpoint never holds rows the sink has not seen.
 */
public final class ParseOperator extends AbstractStreamOperator<ArrowBatch>
        implements OneInputStreamOperator<LineChunk, ArrowBatch>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<String> REJECTED = new OutputTag<>("rejected-lines", Types.STRING);

    private final String schemaDdl;
    private final OnError onError;
    private final UnknownFieldsMode unknownFieldsMode;
    private final int batchRows;

    private transient BufferAllocator allocator;
    private transient BatchParser parser;
    private transient String batchFile;
    private transient long batchOffset;
    private transient long batchEnd;
    private transient long reportedRecords;
    private transient long reportedRejected;

    private transient LongCounter bytesAccumulator;
    private transient LongCounter recordsAccumulator;
    private transient LongCounter rejectedAccumulator;
    private transient UnknownFieldsAccumulator unknownFields;
    private transient Counter bytesMetric;
    private transient Counter recordsMetric;
    private transient Counter rowsMetric;
    private transient Counter rejectedMetric;

    public ParseOperator(TableSchema schema, OnError onError, UnknownFieldsMode unknownFields, int batchRows) {
        this.schemaDdl = schema.toDdl();
        this.onError = onError;
        this.unknownFieldsMode = unknownFields;
        this.batchRows = batchRows;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TaskHeap.configure(getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration());
        allocator = new RootAllocator();
        parser = new BatchParser(TableSchema.parse(schemaDdl).rowType(), unknownFieldsMode, allocator, batchRows,
                this::onBadLine);
        bytesAccumulator = accumulator(ConversionCounters.BYTES_IN);
        recordsAccumulator = accumulator(ConversionCounters.RECORDS_IN);
        rejectedAccumulator = accumulator(ConversionCounters.REJECTED);
        unknownFields = new UnknownFieldsAccumulator();
        getRuntimeContext().addAccumulator(ConversionCounters.UNKNOWN_FIELDS, unknownFields);
        bytesMetric = getMetricGroup().counter(ConversionCounters.METRIC_BYTES_IN);
        recordsMetric = getMetricGroup().counter(ConversionCounters.METRIC_RECORDS_IN);
        rowsMetric = getMetricGroup().counter(ConversionCounters.METRIC_ROWS_OUT);
        rejectedMetric = getMetricGroup().counter(ConversionCounters.METRIC_REJECTED);
    }

    private LongCounter accumulator(String name) {
        LongCounter counter = new LongCounter();
        getRuntimeContext().addAccumulator(name, counter);
        return counter;
    }

    /**
     * Parses a chunk. A bad line that fails the run fails it without restarts: a restart (of the
     * region, or from the last checkpoint) would read the same line and fail the same way.
     */
    @Override
    public void processElement(StreamRecord<LineChunk> element) {
        LineChunk chunk = element.getValue();
        if (chunk.damage() != null) {
            rejectDamaged(chunk);
            return;
        }
        try {
            parse(chunk);
        } catch (BadLineException badLine) {
            throw new SuppressRestartsException(chunk.decompressed() ? badLine.inDecompressedStream() : badLine);
        }
    }

    private void parse(LineChunk chunk) {
        ByteBuffer buffer = chunk.buffer();
        int from = buffer.position();
        int to = buffer.limit();
        int position = from;
        if (!chunk.file().equals(batchFile) || chunk.fileOffset() != batchEnd) {
            emitBatch();
        }
        while (position < to) {
            if (parser.rows() == 0) {
                batchFile = chunk.file();
                batchOffset = chunk.fileOffset() + (position - from);
            }
            position = parser.parse(buffer, position, to, chunk.file(), chunk.fileOffset() + (position - from));
            batchEnd = chunk.fileOffset() + (position - from);
            if (parser.isFull()) {
                emitBatch();
            }
        }
        bytesAccumulator.add((long) (to - from));
        bytesMetric.inc(to - from);
        reportCounts();
    }

    private void onBadLine(String file, long offset, String reason, ByteBuffer buf, int start, int end) {
        if (onError == OnError.FAIL) {
            throw new BadLineException(file, offset, reason);
        }
        output.collect(REJECTED, new StreamRecord<>(RejectedLines.encode(file, offset, reason, buf, start, end)));
    }

    /**
     * A damaged compressed file goes to the rejected output whatever {@link OnError} says: only a
     * reader that goes on past it (an ingest's) tells of it, and the lines lost are not a line the
     * parser could judge.
     */
    private void rejectDamaged(LineChunk chunk) {
        output.collect(REJECTED, new StreamRecord<>(RejectedLines.damaged(chunk.file(), chunk.fileOffset(),
                chunk.damage())));
    }

    private void emitBatch() {
        int rows = parser.rows();
        if (rows == 0) {
            // Nothing to write, but a long line rejected since the last batch still holds heap.
            parser.clear();
            return;
        }
        output.collect(new StreamRecord<>(new ArrowBatch(parser.batch(), batchFile, batchOffset, batchEnd, parser.rowOffsets())));
        rowsMetric.inc(rows);
        parser.clear();
    }

    private void reportCounts() {
        long records = parser.records();
        long rejected = parser.rejected();
        recordsAccumulator.add(records - reportedRecords);
        recordsMetric.inc(records - reportedRecords);
        rejectedAccumulator.add(rejected - reportedRejected);
        rejectedMetric.inc(rejected - reportedRejected);
        reportedRecords = records;
        reportedRejected = rejected;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        emitBatch();
    }

    @Override
    public void endInput() {
        emitBatch();
        reportCounts();
        unknownFields.add(parser.unknownFields());
    }

    @Override
    public void close() throws Exception {
        if (parser != null) {
            parser.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        super.close();
    }
}
