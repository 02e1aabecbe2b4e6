package dev.parq.parse;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.batch.VectorReuse;
import dev.parq.parse.decode.DecodeException;
import dev.parq.parse.decode.DecoderFactory;
import dev.parq.parse.decode.StructDecoder;
import dev.parq.parse.decode.UnknownKeys;
import dev.parq.parse.decode.UnknownValues;
import dev.parq.json.LineFeeds;
import dev.parq.json.Tokenizer;
import dev.parq.batch.ArrowSchemas;

/**
 * Turns NDJSON lines into rows of an Arrow batch. Each line is first checked whole by the
 * {@link Tokenizer} (strict RFC 8259, UTF-8, one object per line) and only then decoded column by
 * column; a value that does not fit its column rejects the line, and the next row simply writes
 * over whatever the rejected line had begun, so a bad line leaves no trace in the batch.
 *
 * <p>Before that, the decoders try the line in one pass of their own ({@link InlinePath}), which
 * takes only the common shapes and leaves everything else, bad lines included, to the tokenizer:
 * which lines are rejected, and why, does not depend on it.
 *
 * <p>Keys not in the schema are counted ({@link #unknownFields()}); with {@link UnknownFieldsMode#KEEP}
 * the batch has the column {@link UnknownFieldsMode#COLUMN} after the schema's, which holds them
 * with their values.
 *
 * <p>The vectors are reused: {@link #clear()} starts the next batch in the same buffers.
 */
public final class BatchParser implements AutoCloseable {

    /** The first copy of a range is small, so that a batch filled after a few rows copies little. */
    private static final int FIRST_WINDOW_BYTES = 64 << 10;
    private static final int WINDOW_BYTES = 1 << 20;
    /**
     * A batch is full at this many bytes of input, if its row limit has not filled it first: rows
     * of large values make batches of fewer rows, so that a batch's vectors, and what the writer
     * copies of them at a time, stay of a size whatever the lines' length.
     */
    static final int MAX_BATCH_BYTES = 8 << 20;
    private final VectorSchemaRoot root;
    private final int maxRows;
    private final BadLineHandler onBadLine;
    private final LineLimit lineLimit;
    private final Tokenizer tokenizer = new Tokenizer();
    private final UnknownKeys unknownKeys;
    /** The column of the unknown keys' values, or null when they are counted only. */
    private final UnknownValues unknownValues;
    private final StructDecoder lineDecoder;
    private final InlinePath inline;

    /** A copy of buf[windowStart, windowEnd), the part of the range being tokenized. */
    private byte[] window;
    private int windowStart;
    private int windowEnd;

    private int rows;
    /** Per row of the batch, the byte offset of its line in its file. */
    private final long[] rowOffsets;
    /** Input bytes of the batch's lines, bad and blank ones included. */
    private long batchBytes;
    /** KiB of {@link LongLines}' budget held for a line longer than the usual window, until the batch is cleared. */
    private int longLinePermits;
    /**
     * Whether a line was taken while {@link #longLinePermits} were held: the batch is to be
     * written now, and {@link #parse} returns; called again, it goes on filling the batch.
     */
    private boolean longLineTaken;
    private long inlineRows;
    /** Lines read again because the window ended inside them (only lines longer than the window). */
    private long windowRefills;
    private long records;
    private long rejected;

    /** The longest line, its line feed included, that a parser of this JVM takes by default. */
    public static long defaultMaxLineBytes() {
        return LineLimit.defaultBytes();
    }

    public BatchParser(RowType schema, BufferAllocator allocator, int maxRows, BadLineHandler onBadLine) {
        this(schema, UnknownFieldsMode.DROP, allocator, maxRows, onBadLine);
    }

    /**
     * @throws dev.parq.schema.SchemaException with {@link UnknownFieldsMode#KEEP}, if the schema has
     *     a column of the name that mode adds
     */
    public BatchParser(RowType schema, UnknownFieldsMode unknownFields, BufferAllocator allocator, int maxRows,
            BadLineHandler onBadLine) {
        this(schema, unknownFields, allocator, maxRows, onBadLine, true, LineLimit.defaultBytes());
    }

    /** With inline false, every line goes through the tokenizer: for tests that compare the paths. */
    BatchParser(RowType schema, BufferAllocator allocator, int maxRows, BadLineHandler onBadLine, boolean inline) {
        this(schema, UnknownFieldsMode.DROP, allocator, maxRows, onBadLine, inline, LineLimit.defaultBytes());
    }

    /**
     * With lines of up to {@code maxLineBytes}, the line feed included; a longer one fails the
     * conversion, whatever the bad-line handler, since rejecting it would take as much memory.
     */
    BatchParser(RowType schema, UnknownFieldsMode unknownFields, BufferAllocator allocator, int maxRows,
            BadLineHandler onBadLine, boolean inline, long maxLineBytes) {
        this.lineLimit = new LineLimit(maxLineBytes);
        this.window = new byte[(int) Math.min(WINDOW_BYTES, lineLimit.bytes())];
        if (maxRows <= 0) {
            throw new IllegalArgumentException("maxRows must be positive, got " + maxRows);
        }
        this.root = VectorSchemaRoot.create(ArrowSchemas.toArrow(unknownFields.outputType(schema)), allocator);
        this.maxRows = maxRows;
        this.rowOffsets = new long[maxRows];
        this.onBadLine = onBadLine;
        for (FieldVector vector : root.getFieldVectors()) {
            vector.setInitialCapacity(maxRows);
        }
        try {
            root.allocateNew();
            this.unknownValues = unknownFields == UnknownFieldsMode.KEEP
                    ? new UnknownValues((MapVector) root.getVector(UnknownFieldsMode.COLUMN)) : null;
            this.unknownKeys = new UnknownKeys(unknownValues);
            this.lineDecoder = DecoderFactory.forRoot(schema, root, unknownKeys);
            this.inline = new InlinePath(lineDecoder, unknownKeys, inline && DecoderFactory.inlineSuits(schema));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /**
     * Parses lines of buf[from, to) — absolute indices into the (possibly memory-mapped, read-only)
     * buffer; never reads outside [from, to) — until the batch holds maxRows rows or the range is
     * exhausted. The range holds whole lines: every line ends with '\n' except possibly the last
     * line of a file. fileOffset is the byte offset in {@code file} of buffer index {@code from}.
     *
     * @return the index just after the last line consumed ({@code to} when done)
     */
    public int parse(ByteBuffer buf, int from, int to, String file, long fileOffset) {
        int pos = from;
        windowStart = from;
        windowEnd = from;
        longLineTaken = false;
        try {
            while (pos < to && !isFull()) {
                if (pos >= windowEnd) {
                    fillWindow(buf, pos, to, windowEnd == from ? Math.min(FIRST_WINDOW_BYTES, window.length) : window.length);
                }
                int limit = windowEnd - windowStart;
                int lineStart = pos - windowStart;
                int status = Tokenizer.OBJECT;
                int lineEnd = inline.tryLine(window, lineStart, limit, windowEnd < to, rows);
                boolean decoded = lineEnd >= 0;
                if (lineEnd == InlinePath.TOKENIZER) {
                    status = tokenizer.scan(window, lineStart, limit);
                    lineEnd = status == Tokenizer.ERROR
                            ? LineFeeds.lineEnd(window, tokenizer.errorPosition(), limit)
                            : tokenizer.lineEnd();
                }
                if (lineEnd == InlinePath.CUT || lineEnd == limit && windowEnd < to) {
                    windowRefills++;
                    unknownKeys.discard();
                    boolean lineFillsWindow = pos == windowStart && limit == window.length;
                    if (lineFillsWindow) {
                        // The window grows to the line at once: found by its line feed, so that a
                        // line of megabytes is copied and scanned once more, not once per doubling.
                        long lineLength = lineLimit.lineLength(buf, pos, windowEnd, to);
                        if (window.length >= lineLimit.bytes() || lineLength > lineLimit.bytes()) {
                            throw lineLimit.tooLong(buf, pos, to, file, fileOffset + (pos - from));
                        }
                        int grown = (int) Math.min(lineLimit.bytes(),
                                Math.max(2L * window.length, (lineLength + 0xFFFF) & ~0xFFFFL));
                        reserveForLongLine(grown);
                        window = new byte[grown];
                    }
                    fillWindow(buf, pos, to, window.length);
                    continue;
                }
                lineEnd += windowStart;
                if (status != Tokenizer.BLANK) {
                    records++;
                    long offset = fileOffset + (pos - from);
                    if (decoded) {
                        inlineRows++;
                        accept(file, offset);
                    } else if (status == Tokenizer.OBJECT) {
                        decodeRow(buf, file, offset, pos, lineEnd);
                    } else {
                        reject(file, offset, tokenizer.errorReason(), buf, pos, lineEnd);
                    }
                }
                int next = lineEnd < to ? lineEnd + 1 : to;
                batchBytes += next - pos;
                pos = next;
                // A batch with a long line goes to the writer at once, so that the heap reserved
                // for the line is given back as soon as it has been written.
                longLineTaken = longLinePermits > 0;
            }
        } finally {
            publishRowCount();
            // A window grown for a very long line is let go before the batch goes to the writer,
            // which then makes copies of that line's values of its own.
            if (window.length > WINDOW_BYTES) {
                window = new byte[(int) Math.min(WINDOW_BYTES, lineLimit.bytes())];
            }
        }
        return pos;
    }

    /**
     * Copies up to size bytes of buf[start, to) into the window: scanning a byte[] is much faster
     * than scanning a mapped buffer. A line longer than the window doubles it.
     *
     * <p>When more of the range follows, the window ends after its last whole line, so that no line
     * of it is cut by its end. The checks for the end of the window in the decoders then hold only
     * for a line longer than the window: a cut line used to take those branches once in a while,
     * which the optimising compiler had left out of its code, so that each sent the decoder back
     * to the interpreter and through another compilation (16 of the 26 deoptimisations of parq's
     * code in a 1 GiB conversion).
     */
    private void fillWindow(ByteBuffer buf, int start, int to, int size) {
        int length = Math.min(size, to - start);
        buf.get(start, window, 0, length);
        if (start + length < to) {
            int last = length - 1;
            while (last >= 0 && window[last] != '\n') {
                last--;
            }
            if (last >= 0) {
                length = last + 1;
            }
        }
        windowStart = start;
        windowEnd = start + length;
    }

    private void decodeRow(ByteBuffer buf, String file, long offset, int lineStart, int lineEnd) {
        try {
            lineDecoder.decode(tokenizer.tape(), 0, rows);
        } catch (DecodeException e) {
            unknownKeys.discard();
            reject(file, offset, e.getMessage(), buf, lineStart, lineEnd);
            return;
        }
        accept(file, offset);
    }

    private void accept(String file, long offset) {
        unknownKeys.commit(file, offset, rows);
        rowOffsets[rows] = offset;
        rows++;
    }

    private void reject(String file, long offset, String reason, ByteBuffer buf, int lineStart, int lineEnd) {
        rejected++;
        int contentEnd = lineEnd > lineStart && buf.get(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
        onBadLine.onBadLine(file, offset, reason, buf, lineStart, contentEnd);
    }

    private void publishRowCount() {
        lineDecoder.finish(rows);
        if (unknownValues != null) {
            unknownValues.finish(rows);
        }
        root.setRowCount(rows);
    }

    /** The batch being filled; its row count is {@link #rows()}. */
    public VectorSchemaRoot batch() {
        return root;
    }

    /** Per row of the batch, the byte offset of its line; refilled with the vectors. */
    public long[] rowOffsets() {
        return rowOffsets;
    }

    public int rows() {
        return rows;
    }

    public boolean isFull() {
        return rows >= maxRows || batchBytes >= MAX_BATCH_BYTES || longLineTaken;
    }

    /** Takes the part of the JVM's heap for long lines that a window of {@code windowBytes} needs, waiting for it if need be. */
    private void reserveForLongLine(int windowBytes) {
        int needed = LongLines.jvm().permitsFor(windowBytes);
        if (needed > longLinePermits) {
            // All at once, holding nothing while waiting: parsers that each held a part and waited
            // for more could wait for each other forever.
            LongLines.jvm().giveBack(longLinePermits);
            longLinePermits = 0;
            LongLines.jvm().take(needed);
            longLinePermits = needed;
        }
    }

    private void releaseLongLine() {
        LongLines.jvm().giveBack(longLinePermits);
        longLinePermits = 0;
        longLineTaken = false;
    }

    /** Starts the next batch in the same buffers. */
    public void clear() {
        for (FieldVector vector : root.getFieldVectors()) {
            VectorReuse.reuse(vector);
        }
        rows = 0;
        batchBytes = 0;
        releaseLongLine();
        root.setRowCount(0);
    }

    /** Non-blank lines seen in total, across batches. */
    public long records() {
        return records;
    }

    /** Rows decoded by the inline path, across batches: tests see which path a line took. */
    long inlineRows() {
        return inlineRows;
    }

    long windowRefills() {
        return windowRefills;
    }

    /** Bad lines in total, across batches. */
    public long rejected() {
        return rejected;
    }

    /** Key path to how often it occurred outside the schema and where first; a snapshot. */
    public Map<String, UnknownField> unknownFields() {
        Map<String, UnknownField> fields = new HashMap<>();
        for (UnknownKeys.Counter c : unknownKeys.seen()) {
            fields.put(c.path(), new UnknownField(c.count(), c.firstFile(), c.firstOffset()));
        }
        return fields;
    }

    @Override
    public void close() {
        releaseLongLine();
        root.close();
    }
}
