package dev.parq.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * The lines of an input read as a stream (a compressed file, standard input), in chunks of whole
 * lines: what a window of a mapped file is for an input that cannot be mapped. Offsets count the
 * stream's bytes as read, decompressed ones for a compressed input.
 *
 * <p>One buffer of about the chunk size is reused for every chunk, so a chunk is valid until the
 * next one is asked for. It grows for a line longer than a chunk, up to one byte past the longest
 * line taken: a longer line is handed on as it is, for the parser to report.
 */
public final class LineStream implements Lines {

    private static final int READ_AHEAD_MIN = 64 << 10;
    private static final int READ_AHEAD_MAX = 1 << 20;

    private final String location;
    private final Compression compression;
    private final InputStream in;
    private final int maxBuffer;
    private byte[] buffer;
    /** buffer[next, filled) is read and not handed on yet. */
    private int next;
    private int filled;
    private boolean ended;
    /** The stream offset of buffer[next]. */
    private long position;
    private long chunkOffset;
    /** Where a compressed stream turned out damaged, once it has; thrown once its whole lines are handed on. */
    private CorruptInputException damage;

    private LineStream(String location, Compression compression, InputStream in, int chunkSize, long maxLineBytes) {
        this.location = location;
        this.compression = compression;
        this.in = in;
        this.maxBuffer = (int) Math.min(maxLineBytes + 1, Integer.MAX_VALUE - 16);
        this.buffer = new byte[Math.max(1, Math.min(chunkSize, maxBuffer))];
    }

    /**
     * The lines of {@code raw}, decompressed by {@code compression}; {@code location} names the
     * input in messages. Closing the line stream closes {@code raw}.
     *
     * @throws CorruptInputException when the stream does not start as {@code compression} does
     */
    public static LineStream open(String location, InputStream raw, Compression compression, int chunkSize,
            long maxLineBytes) throws IOException {
        InputStream in;
        try {
            in = compression.decompress(raw);
        } catch (IOException e) {
            raw.close();
            throw corrupt(location, compression, 0, e);
        }
        if (compression.compressed()) {
            // Inflating takes as long as parsing: done ahead by a thread of its own, it runs on
            // another core while the task parses.
            in = ReadAhead.of(in, Math.max(READ_AHEAD_MIN, Math.min(chunkSize, READ_AHEAD_MAX)), location);
        }
        return new LineStream(location, compression, in, chunkSize, maxLineBytes);
    }

    /**
     * The next chunk of whole lines (the last line of the input may lack its line feed), or null at
     * the end of the input.
     *
     * @throws CorruptInputException when a compressed stream is truncated or damaged, once the
     *     whole lines before the damage are handed on
     */
    @Override
    public ByteBuffer next() throws IOException {
        System.arraycopy(buffer, next, buffer, 0, filled - next);
        filled -= next;
        next = 0;
        while (true) {
            fill();
            int length = ended ? filled : lastLineEnd();
            if (damage != null) {
                // The whole lines inflated before the damage are handed on first; the rest is lost.
                length = lastLineEnd();
                if (length == 0) {
                    throw damage;
                }
            } else if (length == 0 && !ended && buffer.length >= maxBuffer) {
                length = filled;
            }
            if (length > 0) {
                chunkOffset = position;
                position += length;
                next = length;
                return ByteBuffer.wrap(buffer, 0, length).slice();
            }
            if (ended) {
                return null;
            }
            byte[] grown = new byte[(int) Math.min((long) buffer.length * 2, maxBuffer)];
            System.arraycopy(buffer, 0, grown, 0, filled);
            buffer = grown;
        }
    }

    /**
     * The chunks {@code share}, {@code share + shares}, ... of this stream, the others skipped:
     * one reader's share of a stream that every reader of it reads whole (a compressed file, which
     * each of them can open).
     */
    public Lines share(int share, int shares) {
        if (shares == 1) {
            return this;
        }
        return new Lines() {
            private long index;

            @Override
            public ByteBuffer next() throws IOException {
                ByteBuffer chunk;
                do {
                    chunk = LineStream.this.next();
                } while (chunk != null && index++ % shares != share);
                return chunk;
            }

            @Override
            public long chunkOffset() {
                return LineStream.this.chunkOffset();
            }

            @Override
            public Compression compression() {
                return LineStream.this.compression();
            }

            @Override
            public void close() throws IOException {
                LineStream.this.close();
            }
        };
    }

    @Override
    public long chunkOffset() {
        return chunkOffset;
    }

    /** The input's name in messages. */
    public String location() {
        return location;
    }

    @Override
    public Compression compression() {
        return compression;
    }

    private void fill() throws IOException {
        while (!ended && damage == null && filled < buffer.length) {
            int n;
            try {
                n = in.read(buffer, filled, buffer.length - filled);
            } catch (IOException e) {
                if (!compression.compressed()) {
                    throw e;
                }
                damage = corrupt(location, compression, position + filled, e);
                return;
            }
            if (n < 0) {
                ended = true;
            } else {
                filled += n;
            }
        }
    }

    private int lastLineEnd() {
        for (int i = filled - 1; i >= 0; i--) {
            if (buffer[i] == '\n') {
                return i + 1;
            }
        }
        return 0;
    }

    private static CorruptInputException corrupt(String location, Compression compression, long at,
            IOException cause) {
        return new CorruptInputException(location, "truncated or corrupt " + compression.formatName()
                + " stream: it cannot be read past byte " + at + " of the decompressed stream (" + cause.getMessage()
                + ")", cause);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
