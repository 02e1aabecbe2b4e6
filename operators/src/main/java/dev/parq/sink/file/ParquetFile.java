package dev.parq.sink.file;

import java.io.IOException;
import java.util.Map;

import dev.parq.sink.Compression;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * The Parquet file being written: parquet-mr's {@link ParquetFileWriter}, which lays the row
 * groups out one after the other and ends the file with its footer, the codec that compresses
 * their pages, and the key-value metadata the footer carries.
 */
public final class ParquetFile {

    private final MessageType schema;
    private final Map<String, String> metadata;
    private final PageCompressor compressor;
    private final ParquetFileWriter writer;

    /** Starts a file of {@code schema} in {@code out}, whose footer will hold {@code metadata}. */
    public ParquetFile(OutputFile out, MessageType schema, ParquetProperties properties, long rowGroupSize,
            Compression compression, Map<String, String> metadata) throws IOException {
        this.schema = schema;
        this.metadata = metadata;
        this.compressor = new PageCompressor(compression);
        this.writer = new ParquetFileWriter(
                out, schema, ParquetFileWriter.Mode.CREATE, rowGroupSize, 0, null, properties);
        writer.start();
    }

    /** A store for the pages of the row group numbered {@code ordinal}, compressed with the file's codec. */
    public ColumnChunkPageWriteStore pageStore(ParquetProperties properties, int ordinal) {
        return new ColumnChunkPageWriteStore(compressor, schema, properties.getAllocator(),
                properties.getColumnIndexTruncateLength(), properties.getPageWriteChecksumEnabled(), null, ordinal);
    }

    /** Opens a row group of {@code rows} rows, whose pages then go to {@link #endRowGroup}. */
    public void startRowGroup(long rows) throws IOException {
        writer.startBlock(rows);
    }

    /** Writes the column chunks that {@code pages} holds, and closes the row group. */
    public void endRowGroup(ColumnChunkPageWriteStore pages) throws IOException {
        pages.flushToFileWriter(writer);
        writer.endBlock();
    }

    /** The bytes written so far: the header and the row groups ended. */
    public long position() throws IOException {
        return writer.getPos();
    }

    /** Writes the footer, after the last row group. */
    public void end() throws IOException {
        writer.end(metadata);
    }

    /** Lets go of the codec's arrays, whether or not the file was ended. */
    public void release() {
        compressor.release();
    }
}
