package dev.parq.sink;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

import org.apache.flink.configuration.ReadableConfig;

/** How the sink writes its Parquet files; immutable, each {@code with} returns a copy. */
public final class ParquetWriterOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Compression compression;
    private final long rowGroupSize;
    private final int pageSize;
    private final boolean dictionary;
    private final Duration batchDelay;

    private ParquetWriterOptions(
            Compression compression, long rowGroupSize, int pageSize, boolean dictionary, Duration batchDelay) {
        if (rowGroupSize <= 0 || pageSize <= 0) {
            throw new IllegalArgumentException(
                    "row group size and page size must be positive, got " + rowGroupSize + " and " + pageSize);
        }
        this.compression = Objects.requireNonNull(compression, "compression");
        this.rowGroupSize = rowGroupSize;
        this.pageSize = pageSize;
        this.dictionary = dictionary;
        this.batchDelay = Objects.requireNonNull(batchDelay, "batchDelay");
    }

    /** Snappy, 64 MiB row groups, 1 MiB pages, dictionary encoding for columns with few distinct values. */
    public static ParquetWriterOptions defaults() {
        return new ParquetWriterOptions(
                Compression.DEFAULT,
                ParquetSinkOptions.ROW_GROUP_SIZE.defaultValue().getBytes(),
                (int) ParquetSinkOptions.PAGE_SIZE.defaultValue().getBytes(),
                ParquetSinkOptions.DICTIONARY.defaultValue(),
                Duration.ZERO);
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
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, dictionary, batchDelay);
    }

    public ParquetWriterOptions withRowGroupSize(long bytes) {
        return new ParquetWriterOptions(compression, bytes, pageSize, dictionary, batchDelay);
    }

    public ParquetWriterOptions withPageSize(int bytes) {
        return new ParquetWriterOptions(compression, rowGroupSize, bytes, dictionary, batchDelay);
    }

    public ParquetWriterOptions withDictionary(boolean enabled) {
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, enabled, batchDelay);
    }

    /**
     * Test hook: the Flink bulk writer sleeps this long after writing each batch, to make the sink
     * the slow stage when testing backpressure. Zero (the default) in production.
     */
    public ParquetWriterOptions withBatchDelay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("batch delay must not be negative, got " + delay);
        }
        return new ParquetWriterOptions(compression, rowGroupSize, pageSize, dictionary, delay);
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

    public Duration batchDelay() {
        return batchDelay;
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
                && batchDelay.equals(other.batchDelay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(compression, rowGroupSize, pageSize, dictionary, batchDelay);
    }

    @Override
    public String toString() {
        return "ParquetWriterOptions{" + compression + ", rowGroupSize=" + rowGroupSize + ", pageSize="
                + pageSize + ", dictionary=" + dictionary + ", batchDelay=" + batchDelay + "}";
    }
}
