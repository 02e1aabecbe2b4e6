package dev.parq.io;

import java.io.IOException;

/**
 * An input whose bytes cannot be read as what they claim to be, such as a truncated or damaged
 * gzip or zstd stream: bad input, like a bad line, not a failure of the machine.
 */
public final class CorruptInputException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    /** {@code reason} says what is wrong with the input {@code location}, and where. */
    public CorruptInputException(String location, String reason, Throwable cause) {
        super(location + ": " + reason, cause);
        this.reason = reason;
    }

    /** What is wrong with the input and where, without its name. */
    public String reason() {
        return reason;
    }
}
