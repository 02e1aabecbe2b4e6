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
    private final boolean decompressed;

    public LineChunk(String file, long fileOffset, ByteBuffer buffer) {
        this(file, fileOffset, buffer, false);
    }

    /** With {@code decompressed}, {@code fileOffset} counts the bytes of the file's decompressed stream. */
    public LineChunk(String file, long fileOffset, ByteBuffer buffer, boolean decompressed) {
        this.file = file;
        this.fileOffset = fileOffset;
        this.buffer = buffer;
        this.decompressed = decompressed;
    }

    public String file() {
        return file;
    }

    public long fileOffset() {
        return fileOffset;
    }

    /** Whether the offsets are of the decompressed stream of a compressed file. */
    public boolean decompressed() {
        return decompressed;
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
