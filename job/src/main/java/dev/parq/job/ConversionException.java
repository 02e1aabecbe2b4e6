package dev.parq.job;

/** A conversion that could not be done; the message is what the user reads. */
public class ConversionException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public ConversionException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public ConversionException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** 1 when the conversion failed, 2 when it was asked for wrongly. */
    public int exitCode() {
        return exitCode;
    }

    public static ConversionException usage(String message) {
        return new ConversionException(message, 2);
    }

    public static ConversionException failed(String message, Throwable cause) {
        return new ConversionException(message, 1, cause);
    }
}
