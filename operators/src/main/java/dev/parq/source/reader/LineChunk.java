package dev.parq.source.reader;

import java.nio.ByteBuffer;

/**
 * Whole lines of one input file, as the source hands them to the parser: the bytes from
 * {@code buffer}'s position to its limit start at {@code fileOffset} in {@code file}.
 *
 * <p>The buffer is normally a read-only mapping of the file, released by the source once the
 * chained parser has returned: a consumer must not keep it.
 */
public final class LineChunk {

    private final String file;
    private final long fileOffset;
    private final ByteBuffer buffer;

    public LineChunk(String file, long fileOffset, ByteBuffer buffer) {
        this.file = file;
        this.fileOffset = fileOffset;
        this.buffer = buffer;
    }

    public String file() {
        return file;
    }

    public long fileOffset() {
        return fileOffset;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int length() {
        return buffer.remaining();
    }

    @Override
    public String toString() {
        return "LineChunk{" + file + " [" + fileOffset + ", " + (fileOffset + length()) + ")}";
    }
}
