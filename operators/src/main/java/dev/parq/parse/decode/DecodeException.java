package dev.parq.parse.decode;

/** A value that does not fit its column; the message is the bad-line reason. */
public final class DecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DecodeException(String reason) {
        super(reason, null, false, false);
    }
}
