package dev.parq.io;

import java.io.IOException;

/**
 * An input whose bytes cannot be read as what they claim to be, such as a truncated or damaged
 * gzip or zstd stream: bad input, like a bad line, not a failure of the machine.
 */
public final class CorruptInputException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
