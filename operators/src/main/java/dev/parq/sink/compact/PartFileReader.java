package dev.parq.sink.compact;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.batch.VectorReuse;
import dev.parq.config.TaskHeap;
import dev.parq.io.PositionedReads;
import dev.parq.schema.SchemaException;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.ParquetSchemas;
import dev.parq.sink.compact.convert.BatchMaterializer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a part file the sink wrote back into Arrow batches, for compaction: the batches go to the
 * sink's own writer again, which is what makes the compacted file valid Parquet (its bytes cannot
 * simply be appended).
 *
 * <p>The file must have the sink's columns: every file of a bucket is compacted into one file of
 * one schema. A batch holds the rows of one row group, or fewer: it ends at {@link #BATCH_ROWS}
 * rows or once its values take {@link #BATCH_BYTES}. Its offsets are row numbers in the part file.
 * The vectors are reused from batch to batch, so a batch is only valid until the next {@link #read}
 * (the writer is done with it when it returns); they come from an allocator of this reader's own,
 * bounded and closed with it.
 */
public final class PartFileReader implements Closeable {

    public static final int BATCH_ROWS = 4096;
    public static final long BATCH_BYTES = 8 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(PartFileReader.class);

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private final Path file;
    private final PositionedReads in;
    private final Iterator<BlockMetaData> rowGroups;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final BatchMaterializer materializer;
    private final MessageColumnIO columns;
    private RecordReader<BatchMaterializer> records;
    private long rowsLeftInGroup;
    private long rowsRead;

    /**
     * Opens {@code file} and checks that its columns are {@code rowType}'s.
     *
     * @throws PartFileException if they are not, or the file is not Parquet
     */
    public PartFileReader(FileSystem fs, Path file, RowType rowType) throws IOException {
        this(fs, file, rowType, null);
    }

    /** Opens {@code file}, whose footer was read and checked by {@link #checkedFooter} already, unless null. */
    PartFileReader(FileSystem fs, Path file, RowType rowType, ParquetMetadata checkedFooter) throws IOException {
        this.file = file;
        this.in = new PositionedReads(fs, file);
        try {
            ParquetMetadata footer = checkedFooter != null ? checkedFooter
                    : checkedFooter(in, file, fs.getFileStatus(file).getLen(), rowType);
            FileMetaData metadata = footer.getFileMetaData();
            this.rowGroups = footer.getBlocks().iterator();
            this.columns = new ColumnIOFactory(metadata.getCreatedBy()).getColumnIO(metadata.getSchema());
            this.allocator = new RootAllocator(memoryLimit());
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        this.root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator);
        root.allocateNew();
        this.materializer = new BatchMaterializer(root);
    }

    /**
     * The footer of {@code file}, whose columns must be {@code rowType}'s.
     *
     * @throws PartFileException if they are not, or the file is not Parquet
     */
    static ParquetMetadata checkedFooter(PositionedReads in, Path file, long length, RowType rowType) throws IOException {
        ParquetMetadata footer = footer(in, file, length);
        checkColumns(file, footer.getFileMetaData(), rowType);
        return footer;
    }

    /** The file's footer: its last 8 bytes are the footer's length (little-endian) and the magic. */
    private static ParquetMetadata footer(PositionedReads in, Path file, long length) throws IOException {
        byte[] tail = new byte[8];
        if (length >= 12) {
            in.readFully(length - tail.length, tail, 0, tail.length);
        }
        int footerLength = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (length < 12 || !ByteBuffer.wrap(tail, 4, 4).equals(ByteBuffer.wrap(MAGIC))
                || footerLength <= 0 || footerLength > length - 12) {
            throw new PartFileException("the part file " + file + " (" + length + " bytes) does not end as Parquet does");
        }
        byte[] footer = new byte[footerLength];
        in.readFully(length - tail.length - footerLength, footer, 0, footerLength);
        try {
            return new ParquetMetadataConverter().readParquetMetadata(
                    new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
        } catch (IOException | RuntimeException e) {
            throw new PartFileException("cannot read the footer of the part file " + file + ": " + e.getMessage(), e);
        }
    }

    /** What the vectors may take: a few batches' worth, and the longest line the parser takes beside them. */
    private static long memoryLimit() {
        return 4 * (BATCH_BYTES + TaskHeap.longestLine());
    }

    private static void checkColumns(Path file, FileMetaData metadata, RowType rowType) throws PartFileException {
        Schema expected = ArrowSchemas.toArrow(rowType);
        Map<String, String> keyValues = metadata.getKeyValueMetaData();
        String written = keyValues == null ? null : keyValues.get(ArrowParquetWriter.SCHEMA_METADATA_KEY);
        String sinkColumns = TableSchema.of(rowType).toDdl();
        if (written != null) {
            RowType writtenType;
            try {
                writtenType = TableSchema.parse(written).rowType();
            } catch (SchemaException e) {
                throw new PartFileException("the part file " + file + " names its columns '" + written
                        + "', which parq cannot read: " + e.getMessage(), e);
            }
            if (!ArrowSchemas.toArrow(writtenType).equals(expected)) {
                throw mismatch(file, written, sinkColumns);
            }
        }
        MessageType parquetSchema = ParquetSchemas.toParquet(rowType);
        if (!metadata.getSchema().equals(parquetSchema)) {
            throw mismatch(file, metadata.getSchema().toString(), parquetSchema.toString());
        }
    }

    private static PartFileException mismatch(Path file, String written, String expected) {
        return new PartFileException("the part file " + file + " was written with the columns " + written
                + ", not the sink's " + expected + ": the files of one output are compacted into files of one"
                + " schema (was the job started again with another schema, inferred differently? give --schema)");
    }

    /** The next batch of rows, or null after the last. */
    public ArrowBatch read() throws IOException {
        try {
            while (rowsLeftInGroup == 0) {
                if (!rowGroups.hasNext()) {
                    return null;
                }
                RowGroupPages rowGroup = new RowGroupPages(in, rowGroups.next());
                rowsLeftInGroup = rowGroup.getRowCount();
                records = columns.getRecordReader(rowGroup, materializer, FilterCompat.NOOP);
            }
            for (FieldVector vector : root.getFieldVectors()) {
                VectorReuse.reuse(vector);
            }
            materializer.startBatch();
            do {
                records.read();
                rowsLeftInGroup--;
            } while (rowsLeftInGroup > 0 && materializer.rows() < BATCH_ROWS && materializer.bytes() < BATCH_BYTES);
        } catch (IOException | RuntimeException e) {
            throw new PartFileException("cannot read row " + (rowsRead + materializer.rows()) + " of the part file "
                    + file + ": " + e.getMessage(), e);
        }
        int rows = materializer.rows();
        root.setRowCount(rows);
        long first = rowsRead;
        rowsRead += rows;
        return new ArrowBatch(root, file.toString(), first, rowsRead);
    }

    @Override
    public void close() throws IOException {
        try (BufferAllocator vectorMemory = allocator; VectorSchemaRoot vectors = root) {
            in.close();
        }
    }

    /**
     * The part file's length, or -1 if it is gone, which is told in the log: its rows are in a
     * compacted file. One metadata request: on an object store each costs a round trip.
     */
    static long lengthUnlessGone(FileSystem fs, Path path) throws IOException {
        try {
            return fs.getFileStatus(path).getLen();
        } catch (FileNotFoundException gone) {
            LOG.warn("The part file {} to compact is gone: its rows went into a compacted file before (a snapshot"
                    + " older than that compaction's commit was resumed), or it was deleted", path);
            return -1;
        }
    }
}
