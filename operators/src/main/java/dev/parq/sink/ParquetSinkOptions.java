package dev.parq.sink;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Every setting of the Parquet sink, with its default; {@link ParquetWriterOptions#fromConfig} reads them. */
public final class ParquetSinkOptions {

    public static final ConfigOption<String> COMPRESSION = ConfigOptions.key("parq.sink.compression")
            .stringType()
            .defaultValue("snappy")
            .withDescription("Page compression: snappy, zstd, gzip, lz4_raw or none.");

    public static final ConfigOption<MemorySize> ROW_GROUP_SIZE = ConfigOptions.key("parq.sink.row-group-size")
            .memoryType()
            .defaultValue(MemorySize.parse("64mb"))
            .withDescription("Target size of a row group as buffered in memory; a row group is closed once"
                    + " its buffered pages reach this size, or the writer's share of 40% of the heap (shared"
                    + " by the writers open in the JVM), whichever is smaller.");

    public static final ConfigOption<MemorySize> PAGE_SIZE = ConfigOptions.key("parq.sink.page-size")
            .memoryType()
            .defaultValue(MemorySize.parse("1mb"))
            .withDescription("Target size of a data page before compression.");

    public static final ConfigOption<Boolean> DICTIONARY = ConfigOptions.key("parq.sink.dictionary")
            .booleanType()
            .defaultValue(true)
            .withDescription("Dictionary-encode the columns with few distinct values: each file samples its"
                    + " first batch and writes a column plain when more than a fifth of the sampled values"
                    + " are distinct or its dictionary would outgrow a page; Parquet still falls back to plain"
                    + " encoding per column chunk if a dictionary grows too large. False writes every column plain.");

    private ParquetSinkOptions() {}
}
