package dev.parq.io;

import java.io.IOException;

/**
 * An input file that changed while it was read: truncated, replaced or deleted under the reader.
 * What was read of it cannot be told apart from what was not, so a conversion stops with this
 * rather than writing a mix; the message names the file and the byte the reader had reached.
 */
public final class InputChangedException extends IOException {
    private static final long serialVersionUID = 1L;

    public InputChangedException(String message) {
        super(message);
    }

    /**
     * A file found shorter than {@code needed} bytes while it was read at {@code position}: one
     * truncated under the reader.
     */
    public static InputChangedException truncated(String path, long position, long needed, long size) {
        return new InputChangedException("input file " + path + " was truncated while it was being read: at byte "
                + position + " it has " + size + " bytes, " + needed + " were there when the read began");
    }
}
