package dev.parq.json;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Where the lines of NDJSON end, looked for in the input's own (often mapped) buffers and in copies of them. */
public final class LineFeeds {

    private LineFeeds() {}

    /**
     * The index of the first line feed in {@code buf[from, to)}, or -1: eight bytes at a time
     * (a byte-wise loop over a mapped buffer reads a few hundred MB/s, which a line of megabytes
     * would spend in looking for its end).
     */
    public static int indexOf(ByteBuffer buf, int from, int to) {
        ByteBuffer bytes = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int p = from;
        for (; p + Long.BYTES <= to; p += Long.BYTES) {
            long x = bytes.getLong(p) ^ 0x0A0A0A0A0A0A0A0AL;
            // The high bit of each byte that is zero in x, exactly (no borrow between bytes).
            long zero = ~(((x & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | x | 0x7F7F7F7F7F7F7F7FL);
            if (zero != 0) {
                return p + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; p < to; p++) {
            if (bytes.get(p) == '\n') {
                return p;
            }
        }
        return -1;
    }

    /** One past the last line feed in {@code buf[0, length)}, or 0 if there is none: where a window's whole lines end. */
    public static int afterLast(ByteBuffer buf, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (buf.get(i) == '\n') {
                return i + 1;
            }
        }
        return 0;
    }

    /** The index of the first line feed in {@code bytes[from, to)}, or {@code to}: where the line at {@code from} ends. */
    public static int lineEnd(byte[] bytes, int from, int to) {
        for (int p = from; p < to; p++) {
            if (bytes[p] == '\n') {
                return p;
            }
        }
        return to;
    }
}
