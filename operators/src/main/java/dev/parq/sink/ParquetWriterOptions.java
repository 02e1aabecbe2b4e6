package dev.parq.sink;

import java.io.Serializable;
import java.util.Objects;

import org.apache.flink.configuration.ReadableConfig;

/** How the sink writes its Parquet files; immutable, each {@code with} returns a copy. */
public final class ParquetWriterOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Compression compression;
    private final long rowGroupSize;
    private final int pageSize;
    private final boolean dictionary;
    private final long targetFileSize;

    private ParquetWriterOptions(
            Compression compression, long rowGroupSize, int pageSize, boolean dictionary, long targetFileSize) {
        if (rowGroupSize <= 0 || pageSize <= 0 || targetFileSize <= 0) {
            throw new IllegalArgumentException("row group size, page size and target file size must be positive,"
                    + " got " + rowGroupSize + ", " + pageSize + " and " + targetFileSize);
        }
        this.targetFileSize = targetFileSize;
        this.compression = Objects.requireNonNull(compression, "compression");
        this.rowGroupSize = rowGroupSize;
        this.pageSize = pageSize;
        this.dictionary = dictionary;
    }

    /**
     * Snappy, 64 MiB row groups, 1 MiB pages, dictionary encoding for columns with few distinct
     * values, 128 MiB files.
     */
    public static ParquetWriterOptions defaults() {
        return new ParquetWriterOptions(
                Compression.DEFAULT,
                ParquetSinkOptions.ROW_GROUP_SIZE.defaultValue().getBytes(),
                (int) ParquetSinkOptions.PAGE_SIZE.defaultValue().getBytes(),
                ParquetSinkOptions.DICTIONARY.defaultValue(),
                ParquetSinkOptions.TARGET_FILE_SIZE.defaultValue().getBytes());
    }

    /** The options as set by {@link ParquetSinkOptions} in {@code config}. */
    public static ParquetWriterOptions fromConfig(ReadableConfig config) {
        return defaults()
                .withCompression(Compression.parse(config.get(ParquetSinkOptions.COMPRESSION)))
                .withRowGroupSize(config.get(ParquetSinkOptions.ROW_GROUP_SIZE).getBytes())
                .withPageSize(Math.toIntExact(config.get(ParquetSinkOptions.PAGE_SIZE).getBytes()))
                .withDictionary(config.get(ParquetSinkOptions.DICTIONARY))
                .withTargetFileSize(config.get(ParquetSinkOptions.TARGET_FILE_SIZE).getBytes());
    }

    public ParquetWriterOptions withCompression(Compression compression) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, dictionary, targetFileSize);
    }

    public ParquetWriterOptions withRowGroupSize(long bytes) {
        return new ParquetWriterOptions(compression, bytes, pageSize, dictionary, targetFileSize);
    }

    public ParquetWriterOptions withPageSize(int bytes) {
        return new ParquetWriterOptions(compression, rowGroupSize, bytes, dictionary, targetFileSize);
    }

    public ParquetWriterOptions withDictionary(boolean enabled) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, enabled, targetFileSize);
    }

    public ParquetWriterOptions withTargetFileSize(long bytes) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, dictionary, bytes);
    }

    public Compression compression() {
        return compression;
    }

    public long rowGroupSize() {
        return rowGroupSize;
    }

    public int pageSize() {
        return pageSize;
    }

    public boolean dictionary() {
        return dictionary;
    }

    /** The size at which a part file is full: its row groups end so as to fill it, and the sink rolls to a new file. */
    public long targetFileSize() {
        return targetFileSize;
    }

    /**
     * How far below {@link #targetFileSize} a file counts as full: the smallest last row group a
     * file is given to reach its target, since a row group's pages shrink when compressed and a
     * file's size is only known as row groups are written.
     */
    public long fileSizeSlack() {
        return Math.max(4096, targetFileSize / 16);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ParquetWriterOptions)) {
            return false;
        }
        ParquetWriterOptions other = (ParquetWriterOptions) o;
        return compression == other.compression
                && rowGroupSize == other.rowGroupSize
                && pageSize == other.pageSize
                && dictionary == other.dictionary
                && targetFileSize == other.targetFileSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(compression, rowGroupSize, pageSize, dictionary, targetFileSize);
    }

    @Override
    public String toString() {
        return "ParquetWriterOptions{" + compression + ", rowGroupSize=" + rowGroupSize + ", pageSize="
                + pageSize + ", dictionary=" + dictionary + ", targetFileSize=" + targetFileSize + "}";
    }
}
