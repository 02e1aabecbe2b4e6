package dev.parq.source.enumerator;

import java.io.Serializable;

/**
 * How the tailing enumerator starts on files: from their end instead of their beginning, for the
 * files there are at a first start; and not at all for files not modified for
 * {@code ignoreOlderMillis} (0: every file is read).
 */
public record Following(boolean startAtEnd, long ignoreOlderMillis) implements Serializable {

    public static final Following FROM_BEGINNING = new Following(false, 0);
}
