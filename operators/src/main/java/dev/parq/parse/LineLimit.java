package dev.parq.parse;

import java.nio.ByteBuffer;
import java.util.Locale;

import dev.parq.config.TaskHeap;
import dev.parq.json.LineFeeds;

/**
 * The longest line a parser takes, the line feed included. A longer one fails the run whatever the
 * bad-line handler, since rejecting it would take as much memory; its message says what heap would
 * take it.
 */
final class LineLimit {

    private static final int HEAP_PER_LINE = TaskHeap.HEAP_PER_LINE;

    private final long maxBytes;

    LineLimit(long maxBytes) {
        if (maxBytes < 1 || maxBytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("maxLineBytes out of range: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    long bytes() {
        return maxBytes;
    }

    /**
     * The length of the line at {@code start}, its line feed included, which goes on at least
     * to {@code from}; looked for no further than one byte past the longest line taken.
     */
    long lineLength(ByteBuffer buf, int start, int from, int to) {
        int end = (int) Math.min(to, start + maxBytes + 1);
        int feed = LineFeeds.indexOf(buf, from, end);
        if (feed >= 0) {
            return feed + 1 - start;
        }
        return end == to ? to - start : maxBytes + 1;
    }

    /** The longest line a parser takes by default: a sixteenth of the task heap. */
    static long defaultBytes() {
        return TaskHeap.longestLine();
    }

    BadLineException tooLong(ByteBuffer buf, int start, int to, String file, long offset) {
        int end = start;
        while (end < to && buf.get(end) != '\n') {
            end++;
        }
        long length = (end < to ? end + 1 : end) - start;
        // The JVM reports a little less heap than -Xmx gives it (a survivor space less): a fifth more.
        long heapGiB = Math.max(1, ((length + 1) * HEAP_PER_LINE * 5 / 4 + (1L << 30) - 1) >> 30);
        return new BadLineException(file, offset, String.format(Locale.ROOT,
                "the line is %,d bytes long, and this JVM takes lines of up to %,d bytes (a sixteenth of its"
                        + " heap); run it with a heap of %d GiB or more (./parq: PARQ_JAVA_OPTS=-Xmx%dg)",
                length, maxBytes, heapGiB, heapGiB));
    }
}
