package dev.parq.io;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;

/**
 * Standard input as an input, named {@code -}: read by a job that runs in this process only, since
 * a task of a cluster has another process's standard input. Schema inference reads its first bytes
 * before the job does: they are kept here and read again, so that the job sees the whole stream.
 */
public final class StandardInput {

    /** How an input names standard input. */
    public static final String NAME = "-";
    /** How messages and rejected lines name it. */
    public static final String LABEL = "stdin";

    private static boolean enabled;
    private static final InputStream SOURCE = System.in;
    private static byte[] head = new byte[0];
    private static boolean ended;
    private static boolean opened;

    private StandardInput() {}

    public static boolean names(String location) {
        return NAME.equals(location);
    }

    /** Lets jobs read standard input: for the entry point that runs them in this process. */
    public static synchronized void enable() {
        enabled = true;
    }

    public static synchronized boolean enabled() {
        return enabled;
    }

    /**
     * The first {@code length} bytes of the stream (fewer if it ends first), read at most once and
     * kept for {@link #open()}.
     */
    public static synchronized byte[] head(int length) throws IOException {
        if (opened) {
            throw new IllegalStateException("standard input is already being read");
        }
        if (head.length < length && !ended) {
            byte[] grown = Arrays.copyOf(head, length);
            int filled = head.length;
            while (filled < length) {
                int n = SOURCE.read(grown, filled, length - filled);
                if (n < 0) {
                    ended = true;
                    break;
                }
                filled += n;
            }
            head = Arrays.copyOf(grown, filled);
        }
        return Arrays.copyOf(head, Math.min(length, head.length));
    }

    /** Whether {@link #head} has read the whole stream. */
    public static synchronized boolean headIsAll() {
        return ended;
    }

    /** The whole stream, the bytes {@link #head} read first; it can be read once. */
    public static synchronized InputStream open() {
        if (opened) {
            throw new IllegalStateException("standard input can be read once");
        }
        opened = true;
        InputStream stream = new SequenceInputStream(new ByteArrayInputStream(head), SOURCE);
        head = new byte[0];
        return stream;
    }
}
