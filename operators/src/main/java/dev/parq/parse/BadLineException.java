package dev.parq.parse;

/** A bad input line that fails the conversion. */
public final class BadLineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;
    private final String reason;

    public BadLineException(String file, long offset, String reason) {
        this(file, offset, reason, false);
    }

    /** With {@code decompressed}, {@code offset} is in the decompressed stream of a compressed file. */
    private BadLineException(String file, long offset, String reason, boolean decompressed) {
        super(file + ": bad line at byte " + offset + (decompressed ? " of the decompressed stream" : "") + ": "
                + reason);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    /** This bad line, its offset being one in the decompressed stream of its file. */
    public BadLineException inDecompressedStream() {
        return new BadLineException(file, offset, reason, true);
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
