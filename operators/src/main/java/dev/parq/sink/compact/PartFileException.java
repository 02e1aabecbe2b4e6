package dev.parq.sink.compact;

import java.io.IOException;

/**
 * A part file that compaction cannot read back: not written with the sink's columns, or not
 * readable as Parquet. The message names the file and, where it is known, the row.
 */
public final class PartFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public PartFileException(String message) {
        super(message);
    }

    public PartFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
