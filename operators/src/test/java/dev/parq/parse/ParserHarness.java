package dev.parq.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

import dev.parq.schema.TableSchema;

/** A BatchParser over a small schema, fed with strings, recording bad lines. */
final class ParserHarness implements AutoCloseable {

    static final String FILE = "in.ndjson";

    record Bad(String file, long offset, String reason, String line) {}

    final BufferAllocator allocator = new RootAllocator();
    final List<Bad> bad = new ArrayList<>();
    final BatchParser parser;

    ParserHarness(String columns) {
        this(columns, 1024);
    }

    ParserHarness(String columns, int maxRows) {
        this(columns, maxRows, true);
    }

    /** With inline false, every line takes the tokenizer and tape path. */
    ParserHarness(String columns, int maxRows, boolean inline) {
        parser = new BatchParser(TableSchema.parse(columns).rowType(), allocator, maxRows, this::record, inline);
    }

    /** Taking lines of up to maxLineBytes. */
    ParserHarness(String columns, int maxRows, boolean inline, long maxLineBytes) {
        this(columns, UnknownFieldsMode.DROP, maxRows, inline, maxLineBytes);
    }

    /** With unknown keys counted only, or kept in the batch's last column. */
    ParserHarness(String columns, UnknownFieldsMode unknownFields, int maxRows, boolean inline, long maxLineBytes) {
        parser = new BatchParser(TableSchema.parse(columns).rowType(), unknownFields, allocator, maxRows, this::record,
                inline, maxLineBytes);
    }

    private void record(String file, long offset, String reason, ByteBuffer buf, int lineStart, int lineEnd) {
        byte[] line = new byte[lineEnd - lineStart];
        buf.get(lineStart, line);
        bad.add(new Bad(file, offset, reason, new String(line, StandardCharsets.UTF_8)));
    }

    static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer();
    }

    /** Parses the whole text as file content starting at offset 0, into one batch until it is full of rows. */
    int parse(String text) {
        return parse(bytes(text));
    }

    int parse(byte[] content) {
        return parse(ByteBuffer.wrap(content).asReadOnlyBuffer());
    }

    /**
     * The parser returns early after a line longer than its window, for the batch to be written;
     * the harness keeps the rows and calls it again, as long as it takes more.
     */
    private int parse(ByteBuffer buf) {
        int pos = 0;
        while (pos < buf.limit()) {
            int next = parser.parse(buf, pos, buf.limit(), FILE, pos);
            if (next == pos) {
                break;
            }
            pos = next;
        }
        return pos;
    }

    FieldVector column(String name) {
        return parser.batch().getVector(name);
    }

    /** The value at row as Arrow's getObject, with Text turned into String. */
    Object value(String name, int row) {
        Object value = column(name).getObject(row);
        return value instanceof org.apache.arrow.vector.util.Text ? value.toString() : value;
    }

    String onlyReason() {
        if (bad.size() != 1) {
            throw new AssertionError("expected one bad line, got " + bad);
        }
        return bad.get(0).reason();
    }

    @Override
    public void close() {
        parser.close();
        allocator.close();
    }
}
