package dev.parq.sink;

import java.io.IOException;

import dev.parq.batch.ArrowBatch;
import dev.parq.io.NoSpaceLeftException;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

/** Flink's bulk-format writer for one part file: each batch is written as it arrives. */
public final class ArrowParquetBulkWriter implements BulkWriter<ArrowBatch> {

    private final ArrowParquetWriter writer;
    /** Where the part file is, as a full disk's message names it. */
    private final String place;
    private final FSDataOutputStream out;
    private final long start;

    ArrowParquetBulkWriter(ArrowParquetWriter writer, String place, FSDataOutputStream out) throws IOException {
        this.writer = writer;
        this.place = place;
        this.out = out;
        this.start = out.getPos();
    }

    @Override
    public void addElement(ArrowBatch batch) throws IOException {
        try {
            writer.write(batch.root());
        } catch (OutOfMemoryError e) {
            int row = writer.rowBeingWritten();
            throw new OutOfHeapException(batch.file(), batch.rowOffset(Math.max(0, row)), e);
        } catch (IOException e) {
            throw NoSpaceLeftException.naming(place, e);
        }
    }

    /** A no-op: Parquet can only hand over whole row groups, which {@link #finish} does. */
    @Override
    public void flush() {}

    /**
     * Writes the last row group and the footer; Flink closes the stream itself. A writer that was
     * given no row, on a stream that others wrote to, writes nothing: that is the writer Flink opens
     * on a compacted file and finishes after {@link dev.parq.sink.compact.ParquetFileCompactor} has
     * written the whole file through the stream, and its own header, still in its buffer, and
     * footer of no rows would follow the compacted file's.
     */
    @Override
    public void finish() throws IOException {
        if (writer.rowsWritten() == 0 && out.getPos() > start) {
            writer.discard();
            return;
        }
        try {
            writer.close();
        } catch (IOException e) {
            throw NoSpaceLeftException.naming(place, e);
        }
    }

    public long rowsWritten() {
        return writer.rowsWritten();
    }

    /** Creates a writer per part file; serializable, so it travels with the job graph. */
    public static final class Factory implements BulkWriter.Factory<ArrowBatch> {
        private static final long serialVersionUID = 1L;

        private final String place;
        private final RowType rowType;
        private final ParquetWriterOptions options;

        /** Writers of part files in {@code outputDir} (or its partitions' folders). */
        public Factory(Path outputDir, RowType rowType, ParquetWriterOptions options) {
            this.place = "a Parquet file in " + outputDir;
            this.rowType = rowType;
            this.options = options;
        }

        @Override
        public BulkWriter<ArrowBatch> create(FSDataOutputStream out) throws IOException {
            return new ArrowParquetBulkWriter(
                    new ArrowParquetWriter(new FlinkOutputFile(out), rowType, options), place, out);
        }
    }
}
