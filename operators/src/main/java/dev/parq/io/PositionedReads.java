package dev.parq.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Reads of byte ranges of a file of a Flink file system, by position, that a failed read does
 * not end at once. S3A's input stream retries the opening of its object only on the stream's
 * first read: a stream that opens it again after a seek (a split's next window, a Parquet footer
 * and then its row groups) gets none of S3A's retries, only the AWS SDK's few, and a store gone
 * for a while fails that read. A read that fails is therefore made once more on a new stream,
 * whose first open is within the file system's retries; if that one fails too, its error is the
 * read's.
 */
public final class PositionedReads implements Closeable {

    private final FileSystem fileSystem;
    private final Path path;
    private FSDataInputStream in;

    public PositionedReads(FileSystem fileSystem, Path path) throws IOException {
        this.fileSystem = fileSystem;
        this.path = path;
        this.in = fileSystem.open(path);
    }

    /** Reads up to {@code length} bytes from {@code position}: fewer only at the end, -1 at the end. */
    public int read(long position, byte[] into, int offset, int length) throws IOException {
        try {
            return readAt(position, into, offset, length);
        } catch (EOFException end) {
            throw end;
        } catch (IOException failed) {
            return readAgain(position, into, offset, length, failed);
        }
    }

    /** The read after {@code failed}, on a new stream. */
    private int readAgain(long position, byte[] into, int offset, int length, IOException failed) throws IOException {
        FSDataInputStream again;
        try {
            again = fileSystem.open(path);
        } catch (IOException reopenFailed) {
            reopenFailed.addSuppressed(failed);
            throw reopenFailed;
        }
        FSDataInputStream old = in;
        in = again;
        try {
            old.close();
        } catch (IOException ignored) {
            // The stream that failed has nothing left to give back.
        }
        return readAt(position, into, offset, length);
    }

    /** Reads {@code into} whole from {@code position}; the file ending before is an error naming it. */
    public void readFully(long position, byte[] into, int offset, int length) throws IOException {
        int n = read(position, into, offset, length);
        if (n < length) {
            throw new EOFException(path + " ended at byte " + (position + Math.max(n, 0)) + ", before the "
                    + length + " bytes asked for from byte " + position);
        }
    }

    private int readAt(long position, byte[] into, int offset, int length) throws IOException {
        in.seek(position);
        int total = 0;
        while (total < length) {
            int n = in.read(into, offset + total, length - total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
