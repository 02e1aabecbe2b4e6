package dev.parq.parse;

import java.nio.ByteBuffer;

/** Receives each line that cannot become a row. It may throw to fail the conversion. */
@FunctionalInterface
public interface BadLineHandler {

    /**
     * @param file the input file
     * @param offset byte offset of the line's first byte in the file
     * @param reason short and specific, e.g. "invalid UTF-8 at column 5"
     * @param buf the buffer being parsed; the line is buf[lineStart, lineEnd), without its line break
     */
    void onBadLine(String file, long offset, String reason, ByteBuffer buf, int lineStart, int lineEnd);
}
