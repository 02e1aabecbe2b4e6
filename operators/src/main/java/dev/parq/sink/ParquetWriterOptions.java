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

    private ParquetWriterOptions(
            Compression compression, long rowGroupSize, int pageSize, boolean dictionary) {
        if (rowGroupSize <= 0 || pageSize <= 0) {
            throw new IllegalArgumentException(
                    "row group size and page size must be positive, got " + rowGroupSize + " and " + pageSize);
        }
        this.compression = Objects.requireNonNull(compression, "compression");
        this.rowGroupSize = rowGroupSize;
        this.pageSize = pageSize;
        this.dictionary = dictionary;
    }

    /** Snappy, 64 MiB row groups, 1 MiB pages, dictionary encoding for columns with few distinct values. */
    public static ParquetWriterOptions defaults() {
        return new ParquetWriterOptions(
                Compression.DEFAULT,
                ParquetSinkOptions.ROW_GROUP_SIZE.defaultValue().getBytes(),
                (int) ParquetSinkOptions.PAGE_SIZE.defaultValue().getBytes(),
                ParquetSinkOptions.DICTIONARY.defaultValue());
    }

    /** The options as set by {@link ParquetSinkOptions} in {@code config}. */
    public static ParquetWriterOptions fromConfig(ReadableConfig config) {
        return defaults()
                .withCompression(Compression.parse(config.get(ParquetSinkOptions.COMPRESSION)))
                .withRowGroupSize(config.get(ParquetSinkOptions.ROW_GROUP_SIZE).getBytes())
                .withPageSize(Math.toIntExact(config.get(ParquetSinkOptions.PAGE_SIZE).getBytes()))
                .withDictionary(config.get(ParquetSinkOptions.DICTIONARY));
    }

    public ParquetWriterOptions withCompression(Compression compression) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriterOptions withRowGroupSize(long bytes) {
        return new ParquetWriterOptions(compression, bytes, pageSize, dictionary);
    }

    public ParquetWriterOptions withPageSize(int bytes) {
        return new ParquetWriterOptions(compression, rowGroupSize, bytes, dictionary);
    }

    public ParquetWriterOptions withDictionary(boolean enabled) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, enabled);
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

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ParquetWriterOptions)) {
            return false;
        }
        ParquetWriterOptions other = (ParquetWriterOptions) o;
        return compression == other.compression
                && rowGroupSize == other.rowGroupSize
                && pageSize == other.pageSize
                && dictionary == other.dictionary;
    }

    @Override
    public int hashCode() {
        return Objects.hash(compression, rowGroupSize, pageSize, dictionary);
    }

    @Override
    public String toString() {
        return "ParquetWriterOptions{" + compression + ", rowGroupSize=" + rowGroupSize + ", pageSize="
                + pageSize + ", dictionary=" + dictionary + "}";
    }
}
