package dev.parq.sink.compact;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parq.batch.ArrowBatch;
import dev.parq.io.PositionedReads;
import dev.parq.sink.FlinkOutputFile;
import dev.parq.sink.ParquetSchemas;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.compactor.OutputStreamBasedFileCompactor;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Compacts a bucket's part files into one Parquet file. When their row groups are large (on
 * average at least {@code minRowGroupBytes} of values, as a catch-up or a busy ingest writes
 * them), the row groups are copied as they are, column chunk by column chunk, and only the footer
 * is written anew: no value is decoded or encoded again. Otherwise (many small part files of a
 * quiet ingest), every row is read back and written again through the sink's own writer, which
 * makes row groups of the full size out of them.
 *
 * <p>Either way, each part file's columns must be the sink's ({@link PartFileReader}), and a part
 * file that is gone is passed over, its rows being in a compacted file already.
 */
public final class ParquetFileCompactor extends OutputStreamBasedFileCompactor {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final BulkWriter.Factory<ArrowBatch> writers;
    private final long minRowGroupBytes;

    public ParquetFileCompactor(RowType rowType, BulkWriter.Factory<ArrowBatch> writers, long minRowGroupBytes) {
        this.rowType = rowType;
        this.writers = writers;
        this.minRowGroupBytes = minRowGroupBytes;
    }

    /** A part file that is there, with its length and checked footer, as read once for the whole compaction. */
    private record Part(Path file, long length, ParquetMetadata footer) {}

    @Override
    protected void doCompact(List<Path> inputFiles, OutputStream out) throws Exception {
        List<Part> parts = new ArrayList<>();
        long bytes = 0;
        int rowGroups = 0;
        for (Path file : inputFiles) {
            FileSystem fs = file.getFileSystem();
            long length = PartFileReader.lengthUnlessGone(fs, file);
            if (length < 0) {
                continue;
            }
            try (PositionedReads in = new PositionedReads(fs, file)) {
                ParquetMetadata footer = PartFileReader.checkedFooter(in, file, length, rowType);
                for (BlockMetaData rowGroup : footer.getBlocks()) {
                    bytes += rowGroup.getTotalByteSize();
                    rowGroups++;
                }
                parts.add(new Part(file, length, footer));
            }
        }
        Counted stream = new Counted(out);
        if (rowGroups > 0 && bytes / rowGroups >= minRowGroupBytes) {
            copyRowGroups(parts, stream);
        } else {
            writeAgain(parts, stream);
        }
    }

    /** The files' row groups, copied, under a footer of their own. */
    private void copyRowGroups(List<Part> parts, Counted out) throws IOException {
        ParquetFileWriter writer = new ParquetFileWriter(new FlinkOutputFile(out), ParquetSchemas.toParquet(rowType),
                ParquetFileWriter.Mode.CREATE, Long.MAX_VALUE, 0);
        writer.start();
        for (Part part : parts) {
            try (PositionedReads in = new PositionedReads(part.file().getFileSystem(), part.file())) {
                writer.appendRowGroups(new Chunks(in, part.file(), part.length()), part.footer().getBlocks(), false);
            } catch (IOException | RuntimeException e) {
                throw new PartFileException("cannot copy the row groups of the part file " + part.file() + ": "
                        + e.getMessage(), e);
            }
        }
        Map<String, String> keyValues = parts.get(0).footer().getFileMetaData().getKeyValueMetaData();
        writer.end(keyValues == null ? Map.of() : keyValues);
    }

    /** Every row of the files through the sink's writer. */
    private void writeAgain(List<Part> parts, Counted out) throws IOException {
        BulkWriter<ArrowBatch> writer = writers.create(out);
        for (Part part : parts) {
            try (PartFileReader reader = new PartFileReader(part.file().getFileSystem(), part.file(), rowType,
                    part.footer())) {
                for (ArrowBatch batch = reader.read(); batch != null; batch = reader.read()) {
                    writer.addElement(batch);
                }
            }
        }
        writer.finish();
    }

    /**
     * Flink's stream of the compacted file, counting its bytes; Flink closes it itself, once the
     * compactor has returned.
     */
    private static final class Counted extends FSDataOutputStream {
        private final OutputStream out;
        private long pos;

        Counted(OutputStream out) {
            this.out = out;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            pos += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }

    /**
     * A part file's bytes as parquet-mr's row-group copy reads them (a seek, then reads of a column
     * chunk), through {@link PositionedReads}, so that a read of an object that fails is made once more.
     */
    private static final class Chunks extends SeekableInputStream {
        private final PositionedReads in;
        private final Path file;
        private final long length;
        private long pos;

        Chunks(PositionedReads in, Path file, long length) {
            this.in = in;
            this.file = file;
            this.length = length;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) {
            pos = newPos;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos >= length) {
                return -1;
            }
            int n = in.read(pos, b, off, (int) Math.min(len, length - pos));
            if (n > 0) {
                pos += n;
            }
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            in.readFully(pos, bytes, start, len);
            pos += len;
        }

        @Override
        public int read(ByteBuffer buf) throws IOException {
            int len = buf.remaining();
            if (len == 0) {
                return 0;
            }
            byte[] bytes = new byte[(int) Math.min(len, 1 << 20)];
            int n = read(bytes, 0, bytes.length);
            if (n > 0) {
                buf.put(bytes, 0, n);
            }
            return n;
        }

        @Override
        public void readFully(ByteBuffer buf) throws IOException {
            while (buf.hasRemaining()) {
                if (read(buf) < 0) {
                    throw new EOFException(file + " ended at byte " + pos + " with " + buf.remaining() + " bytes still to read");
                }
            }
        }
    }
}
