package dev.parq.config;

/** A setting whose value is not one its option accepts; the message names the key and what it accepts. */
public final class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public InvalidOptionException(String key, String message, Throwable cause) {
        super(key + ": " + message, cause);
        this.key = key;
    }

    public String key() {
        return key;
    }
}
