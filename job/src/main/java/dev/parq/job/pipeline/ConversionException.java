package dev.parq.job.pipeline;

/**
 * A run that could not be done; the message is what the user reads, and the kind says how the
 * command line words it and which exit code it gives.
 */
public class ConversionException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the run could not be done. */
    public enum Kind {
        /** Asked for wrongly: a bad option, a missing input. Exit code 2. */
        USAGE,
        /** The input holds a bad line (its file and byte offset are in the message). */
        BAD_LINE,
        /** A task ran out of heap; the message says where. */
        OUT_OF_MEMORY,
        /** A file system the run writes to is full; the message says which place. */
        NO_SPACE,
        /** Anything else: an I/O error, counts that do not add up. */
        FAILED
    }

    private final Kind kind;

    public ConversionException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** 2 when the run was asked for wrongly, 1 when it failed. */
    public int exitCode() {
        return kind == Kind.USAGE ? 2 : 1;
    }

    public static ConversionException usage(String message) {
        return new ConversionException(Kind.USAGE, message, null);
    }

    public static ConversionException failed(String message, Throwable cause) {
        return new ConversionException(Kind.FAILED, message, cause);
    }
}
