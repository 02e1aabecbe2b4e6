package dev.parq.sink;

import java.io.IOException;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a stream Flink opened and will close: closing the Parquet side
 * only flushes. (flink-parquet's own adapter is package-private.)
 */
final class FlinkOutputFile implements OutputFile {

    private final FSDataOutputStream stream;
    private boolean created;

    FlinkOutputFile(FSDataOutputStream stream) {
        this.stream = stream;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        if (created) {
            throw new IllegalStateException("the Flink output stream was already handed to a Parquet writer");
        }
        created = true;
        return new PositionOutputStream() {
            @Override
            public long getPos() throws IOException {
                return stream.getPos();
            }

            @Override
            public void write(int b) throws IOException {
                stream.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                stream.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                stream.flush();
            }

            @Override
            public void close() throws IOException {
                stream.flush();
            }
        };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
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
}
