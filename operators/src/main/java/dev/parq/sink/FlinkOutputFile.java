package dev.parq.sink;

import java.io.BufferedOutputStream;
import java.io.IOException;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a stream Flink opened and will close: closing the Parquet side
 * only flushes. (flink-parquet's own adapter is package-private.)
 *
 * <p>Writes are buffered here: parquet-mr writes its footer and page indexes a few bytes at a time
 * (Thrift), and asks for the position before every page and column chunk, and Flink's local file
 * stream turns each of those calls into a system call. The position is counted instead.
 */
public final class FlinkOutputFile implements OutputFile {

    /** Bytes gathered before they go to Flink's stream; larger writes go straight through. */
    static final int BUFFER_BYTES = 128 << 10;

    private final FSDataOutputStream stream;
    private boolean created;

    public FlinkOutputFile(FSDataOutputStream stream) {
        this.stream = stream;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        if (created) {
            throw new IllegalStateException("the Flink output stream was already handed to a Parquet writer");
        }
        created = true;
        return new BufferedPositionStream(stream, stream.getPos());
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    /** The JDK's buffering over Flink's stream, and the bytes that went through it counted. */
    private static final class BufferedPositionStream extends PositionOutputStream {

        private final BufferedOutputStream buffered;
        private long pos;

        BufferedPositionStream(FSDataOutputStream stream, long pos) {
            this.buffered = new BufferedOutputStream(stream, BUFFER_BYTES);
            this.pos = pos;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            buffered.write(b);
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            buffered.write(b, off, len);
            pos += len;
        }

        /** Flushes to Flink's stream, which Flink closes itself. */
        @Override
        public void flush() throws IOException {
            buffered.flush();
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
