package dev.parq.parse.operator;

import java.util.Locale;

/** What a conversion does with a bad line. */
public enum OnError {
    /** Stop the conversion, naming the file, byte offset and reason of the first bad line. */
    FAIL,
    /** Write the bad line to the rejected-lines output and go on. */
    REJECT;

    public static OnError parse(String value) {
        for (OnError mode : values()) {
            if (mode.name().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--on-error must be fail or reject, got '" + value + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
