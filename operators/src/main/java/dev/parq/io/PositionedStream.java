package dev.parq.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/** The bytes of something read by position, from one position up to another, as a stream. */
final class PositionedStream extends InputStream {

    /** A read of up to {@code length} bytes at {@code position}: how many, or -1 at the end. */
    interface Source {
        int read(long position, byte[] into, int offset, int length) throws IOException;
    }

    private final Source source;
    private final long to;
    private final Closeable onClose;
    private long at;

    /** The bytes of {@code source} from {@code from} to {@code to}; closing the stream calls {@code onClose}. */
    PositionedStream(Source source, long from, long to, Closeable onClose) {
        this.source = source;
        this.at = from;
        this.to = to;
        this.onClose = onClose;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (at >= to) {
            return -1;
        }
        int n = source.read(at, into, offset, (int) Math.min(length, to - at));
        if (n <= 0) {
            return -1;
        }
        at += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        onClose.close();
    }
}
