package dev.parq.io;

import java.io.IOException;

/**
 * A write that failed because the file system it went to is full. The JDK reports that ({@code
 * ENOSPC}) as a bare {@link IOException} whose message is the system's, naming no file; this one
 * names the place that was being written, so that the user knows which disk to make room on.
 */
public final class NoSpaceLeftException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The system's text for {@code ENOSPC}, which is all that tells a full disk from other I/O errors. */
    private static final String NO_SPACE = "No space left on device";

    private NoSpaceLeftException(String place, IOException cause) {
        super("no space left on device writing " + place + ": " + cause.getMessage(), cause);
    }

    /**
     * {@code failure} as one of these naming {@code place} ("a part file in /data/out") if the file
     * system was full; else {@code failure} as it is.
     */
    public static IOException naming(String place, IOException failure) {
        return failure instanceof NoSpaceLeftException || !isNoSpace(failure) ? failure
                : new NoSpaceLeftException(place, failure);
    }

    /** Whether {@code failure}, or one of its causes, is the file system's "no space left". */
    public static boolean isNoSpace(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoSpaceLeftException || t.getMessage() != null && t.getMessage().contains(NO_SPACE)) {
                return true;
            }
        }
        return false;
    }
}
