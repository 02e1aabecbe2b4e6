package dev.parq.source.split;

import java.io.IOException;

/**
 * Moves a nominal split boundary forward to the start of the next line, reading only the bytes
 * between the boundary and the next {@code '\n'}: a few bytes for ordinary lines, never the whole
 * file.
 *
 * <p>The boundary {@code b} is snapped to one past the first {@code '\n'} at or after {@code b - 1},
 * so a boundary that already falls just after a {@code '\n'} stays where it is. With no
 * {@code '\n'} left, the boundary becomes the end of the file (the last line has no line end).
 */
public final class LineSnapper {

    /** Random-access reads of the file's bytes. */
    @FunctionalInterface
    public interface ByteSource {
        /** Reads up to {@code length} bytes at {@code position}; returns how many, or -1 at the end. */
        int read(long position, byte[] into, int length) throws IOException;
    }

    private static final int PROBE = 4096;

    private final ByteSource source;
    private final long fileLength;
    private final byte[] probe = new byte[PROBE];

    public LineSnapper(ByteSource source, long fileLength) {
        this.source = source;
        this.fileLength = fileLength;
    }

    /** The start of the first line that begins at or after {@code nominal}. */
    public long snap(long nominal) throws IOException {
        if (nominal <= 0) {
            return 0;
        }
        if (nominal >= fileLength) {
            return fileLength;
        }
        long position = nominal - 1;
        while (position < fileLength) {
            int want = (int) Math.min(PROBE, fileLength - position);
            int read = source.read(position, probe, want);
            if (read <= 0) {
                break;
            }
            for (int i = 0; i < read; i++) {
                if (probe[i] == '\n') {
                    return position + i + 1;
                }
            }
            position += read;
        }
        return fileLength;
    }
}
