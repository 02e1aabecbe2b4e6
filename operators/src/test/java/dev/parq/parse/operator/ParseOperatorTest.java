package dev.parq.parse.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.parq.batch.ArrowBatch;
import dev.parq.parse.BadLineException;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.schema.TableSchema;
import dev.parq.source.reader.LineChunk;
import dev.parq.source.reader.LineChunkSerializer;

class ParseOperatorTest {

    private static final TableSchema SCHEMA = TableSchema.parse("id BIGINT, s STRING");

    private final BatchCopies batches = new BatchCopies();
    private OneInputStreamOperatorTestHarness<LineChunk, ArrowBatch> harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
        batches.close();
    }

    private void open(OnError onError, int batchRows) throws Exception {
        harness = new OneInputStreamOperatorTestHarness<>(
                new ParseOperator(SCHEMA, onError, UnknownFieldsMode.DROP, batchRows), LineChunkSerializer.INSTANCE);
        harness.setup(batches);
        harness.open();
    }

    private void process(String file, long fileOffset, String lines) throws Exception {
        ByteBuffer bytes = ByteBuffer.wrap(lines.getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer();
        harness.processElement(new StreamRecord<>(new LineChunk(file, fileOffset, bytes)));
    }

    /** Lines {"id":from,"s":"vfrom"} ... up to {@code to}, exclusive; each 18 bytes for ids of one digit. */
    private static String lines(int from, int to) {
        StringBuilder lines = new StringBuilder();
        for (int id = from; id < to; id++) {
            lines.append("{\"id\":").append(id).append(",\"s\":\"v").append(id).append("\"}\n");
        }
        return lines.toString();
    }

    private List<ArrowBatch> emitted() {
        return harness.extractOutputValues();
    }

    private static List<Long> ids(ArrowBatch batch) {
        BigIntVector ids = (BigIntVector) batch.root().getVector("id");
        List<Long> values = new ArrayList<>();
        for (int row = 0; row < batch.rowCount(); row++) {
            values.add(ids.getObject(row));
        }
        return values;
    }

    private List<String> rejected() {
        List<String> records = new ArrayList<>();
        var side = harness.getSideOutput(ParseOperator.REJECTED);
        if (side != null) {
            side.forEach(record -> records.add(record.getValue()));
        }
        return records;
    }

    private long counter(String name) {
        Accumulator<?, ?> accumulator = harness.getEnvironment().getAccumulatorRegistry().getUserMap().get(name);
        return (Long) accumulator.getLocalValue();
    }

    /**
     * A chunk of good lines becomes full batches as it is parsed and a last, partly filled one at the end of
     * the input; each batch covers the byte range of its rows in the file, and each row knows its line's offset.
     */
    @Test
    void goodLinesBecomeBatchesOfAtMostBatchRows() throws Exception {
        open(OnError.FAIL, 4);
        String text = lines(0, 10);
        process("in.ndjson", 1000, text);
        assertEquals(List.of(4, 4), emitted().stream().map(ArrowBatch::rowCount).toList(), "the full batches");
        harness.endInput();

        List<ArrowBatch> out = emitted();
        assertEquals(List.of(List.of(0L, 1L, 2L, 3L), List.of(4L, 5L, 6L, 7L), List.of(8L, 9L)),
                out.stream().map(ParseOperatorTest::ids).toList());
        assertEquals(List.of(1000L, 1072L, 1144L), out.stream().map(ArrowBatch::firstOffset).toList());
        assertEquals(List.of(1072L, 1144L, 1180L), out.stream().map(ArrowBatch::endOffset).toList());
        assertEquals(1000L + text.length(), out.get(2).endOffset());
        assertEquals(1000L + 5 * 18, out.get(1).rowOffset(1));
        assertTrue(out.stream().allMatch(batch -> batch.file().equals("in.ndjson")));
        assertEquals(10, counter(ConversionCounters.RECORDS_IN));
        assertEquals(text.length(), counter(ConversionCounters.BYTES_IN));
        assertEquals(0, counter(ConversionCounters.REJECTED));
        assertEquals(List.of(), rejected());
    }

    /** A batch is one contiguous range of one file: a chunk that does not continue it closes it first. */
    @Test
    void aChunkThatDoesNotContinueTheBatchClosesIt() throws Exception {
        open(OnError.FAIL, 100);
        process("a.ndjson", 0, lines(0, 2));
        process("a.ndjson", 36, lines(2, 4));
        assertEquals(List.of(), emitted(), "adjacent chunks fill one batch");
        process("b.ndjson", 36, lines(4, 5));
        process("b.ndjson", 90, lines(5, 6));
        harness.endInput();
        List<ArrowBatch> out = emitted();
        assertEquals(List.of("a.ndjson [0, 72) " + List.of(0L, 1L, 2L, 3L), "b.ndjson [36, 54) " + List.of(4L),
                "b.ndjson [90, 108) " + List.of(5L)),
                out.stream().map(batch -> batch.file() + " [" + batch.firstOffset() + ", " + batch.endOffset() + ") "
                        + ids(batch)).toList());
    }

    /**
     * With {@code --on-error reject}, each bad line goes to the side output with its file, its byte offset
     * in the file (not in the chunk) and its text, and the good lines around it become rows.
     */
    @Test
    void badLinesGoToTheRejectedOutputWithReject() throws Exception {
        open(OnError.REJECT, 100);
        String text = lines(0, 1) + "{\"id\":\"x\"}\n" + lines(1, 2) + "not json\n" + lines(2, 3);
        process("in.ndjson", 500, text);
        harness.endInput();

        assertEquals(List.of(List.of(0L, 1L, 2L)), emitted().stream().map(ParseOperatorTest::ids).toList());
        assertEquals(List.of(500L, 529L, 556L), List.of(emitted().get(0).rowOffset(0), emitted().get(0).rowOffset(1),
                emitted().get(0).rowOffset(2)));
        List<String> rejected = rejected();
        assertEquals(2, rejected.size(), "" + rejected);
        assertTrue(rejected.get(0).startsWith("{\"file\":\"in.ndjson\",\"offset\":518,\"error\":\""), rejected.get(0));
        assertTrue(rejected.get(0).endsWith("\",\"line\":\"{\\\"id\\\":\\\"x\\\"}\"}"), rejected.get(0));
        assertTrue(rejected.get(1).startsWith("{\"file\":\"in.ndjson\",\"offset\":547,\"error\":\""), rejected.get(1));
        assertTrue(rejected.get(1).endsWith("\",\"line\":\"not json\"}"), rejected.get(1));
        assertEquals(5, counter(ConversionCounters.RECORDS_IN));
        assertEquals(2, counter(ConversionCounters.REJECTED));
    }

    /**
     * With {@code --on-error fail}, the first bad line stops the conversion, naming its file and byte
     * offset, and without restarts: another attempt would fail on the same line.
     */
    @Test
    void aBadLineFailsWithItsFileAndOffsetWithFail() throws Exception {
        open(OnError.FAIL, 100);
        String text = lines(0, 2) + "{\"id\":12.5}\n" + lines(2, 3);
        SuppressRestartsException stop = assertThrows(SuppressRestartsException.class,
                () -> process("logs/in.ndjson", 4096, text));
        BadLineException failure = (BadLineException) stop.getCause();
        assertEquals("logs/in.ndjson", failure.file());
        assertEquals(4096 + 36, failure.offset());
        assertTrue(failure.getMessage().startsWith("logs/in.ndjson: bad line at byte 4132: "), failure.getMessage());
        assertEquals(List.of(), rejected());
    }

    /**
     * A chunk that tells of a damaged stream, passed between tasks as any chunk, becomes one record
     * of the rejected output, naming the file, the offset where its lost lines begin and the damage,
     * with {@code --on-error fail} as well: the lines before it stay rows, and nothing fails.
     */
    @Test
    void aDamagedStreamGoesToTheRejectedOutputInEitherMode() throws Exception {
        open(OnError.FAIL, 100);
        process("s3a://b/k.ndjson.gz", 0, lines(0, 2));
        LineChunk damage = LineChunk.damaged("s3a://b/k.ndjson.gz", 36, "truncated or corrupt gzip stream");
        DataOutputSerializer shipped = new DataOutputSerializer(64);
        LineChunkSerializer.INSTANCE.serialize(damage, shipped);
        LineChunk received = LineChunkSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(shipped.getCopyOfBuffer()));
        assertEquals(damage.toString(), received.toString());
        harness.processElement(new StreamRecord<>(received));
        harness.endInput();

        assertEquals(List.of(List.of(0L, 1L)), emitted().stream().map(ParseOperatorTest::ids).toList());
        assertEquals(List.of("{\"file\":\"s3a://b/k.ndjson.gz\",\"offset\":36,\"error\":\"truncated or corrupt gzip"
                + " stream\"}"), rejected());
        assertEquals(2, counter(ConversionCounters.RECORDS_IN));
    }

    /**
     * The operator keeps no state: before a checkpoint barrier it emits its partly filled batch, so that the
     * checkpoint never covers rows the sink has not seen; its snapshot is empty.
     */
    @Test
    void aCheckpointBarrierFlushesThePartlyFilledBatchAndTheSnapshotIsEmpty() throws Exception {
        open(OnError.FAIL, 100);
        process("in.ndjson", 0, lines(0, 3));
        assertEquals(List.of(), emitted());
        harness.prepareSnapshotPreBarrier(1);
        assertEquals(List.of(List.of(0L, 1L, 2L)), emitted().stream().map(ParseOperatorTest::ids).toList());
        OperatorSubtaskState snapshot = harness.snapshot(1, 1);
        assertFalse(snapshot.hasState(), "" + snapshot);

        process("in.ndjson", 54, lines(3, 5));
        harness.endInput();
        List<ArrowBatch> out = emitted();
        assertEquals(2, out.size());
        assertEquals(List.of(3L, 4L), ids(out.get(1)));
        assertEquals(54, out.get(1).firstOffset());
        assertNull(harness.getSideOutput(ParseOperator.REJECTED));
    }
}
