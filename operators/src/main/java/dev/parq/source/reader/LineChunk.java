package dev.parq.source.reader;

import java.nio.ByteBuffer;

/**
 * Whole lines of one input file, as the source hands them to the parser: the bytes from
 * {@code buffer}'s position to its limit start at {@code fileOffset} in {@code file}.
 *
 * <p>The buffer is normally a read-only mapping of the file, released by the source once the
 * chained parser has returned: a consumer must not keep it.
 *
 * <p>A chunk may instead tell of damage ({@link #damage()}): the file's compressed stream cannot be
 * read on, and its lines from {@code fileOffset} on are lost. It travels the same way as lines, so
 * that the record of it is committed with the checkpoint that holds the lines before it.
 */
public final class LineChunk {

    private final String file;
    private final long fileOffset;
    private final ByteBuffer buffer;
    private final boolean decompressed;
    private final String damage;

    public LineChunk(String file, long fileOffset, ByteBuffer buffer) {
        this(file, fileOffset, buffer, false);
    }

    /** With {@code decompressed}, {@code fileOffset} counts the bytes of the file's decompressed stream. */
    public LineChunk(String file, long fileOffset, ByteBuffer buffer, boolean decompressed) {
        this(file, fileOffset, buffer, decompressed, null);
    }

    private LineChunk(String file, long fileOffset, ByteBuffer buffer, boolean decompressed, String damage) {
        this.file = file;
        this.fileOffset = fileOffset;
        this.buffer = buffer;
        this.decompressed = decompressed;
        this.damage = damage;
    }

    /**
     * No lines: the compressed stream of {@code file} is damaged ({@code reason}), and its lines from
     * {@code lostFrom} of the decompressed stream on cannot be read.
     */
    public static LineChunk damaged(String file, long lostFrom, String reason) {
        return new LineChunk(file, lostFrom, ByteBuffer.allocate(0), true, reason);
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

    /** What is wrong with the stream of a chunk that tells of damage; null for a chunk of lines. */
    public String damage() {
        return damage;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int length() {
        return buffer.remaining();
    }

    @Override
    public String toString() {
        return "LineChunk{" + file + (damage != null ? " damaged from " + fileOffset + ": " + damage
                : " [" + fileOffset + ", " + (fileOffset + length()) + ")") + "}";
    }
}
