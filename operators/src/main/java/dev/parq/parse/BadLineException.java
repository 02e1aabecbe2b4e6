package dev.parq.parse;

/** A bad input line that fails the conversion. */
public final class BadLineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;
    private final String reason;

    public BadLineException(String file, long offset, String reason) {
        super(file + ": bad line at byte " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
