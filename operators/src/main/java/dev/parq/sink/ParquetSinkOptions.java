package dev.parq.sink;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;

/** Every setting of the Parquet sink, with its default; {@link ParquetWriterOptions#fromConfig} reads them. */
public final class ParquetSinkOptions {

    public static final String COMPRESSION_DEFAULT = "snappy";
    public static final String ROW_GROUP_SIZE_DEFAULT = "64mb";
    public static final String PAGE_SIZE_DEFAULT = "1mb";
    public static final String TARGET_FILE_SIZE_DEFAULT = "128mb";

    public static final ConfigOption<String> COMPRESSION = ConfigOptions.key("parq.sink.compression")
            .stringType()
            .defaultValue(COMPRESSION_DEFAULT)
            .withDescription("Page compression: snappy, zstd, gzip, lz4_raw or none.");

    public static final ConfigOption<MemorySize> ROW_GROUP_SIZE = ConfigOptions.key("parq.sink.row-group-size")
            .memoryType()
            .defaultValue(MemorySize.parse(ROW_GROUP_SIZE_DEFAULT))
            .withDescription("Target size of a row group as buffered in memory; a row group is closed once"
                    + " its buffered pages reach this size, or the writer's share of 40% of the task heap (shared"
                    + " by the writers open in the JVM), whichever is smaller.");

    public static final ConfigOption<MemorySize> PAGE_SIZE = ConfigOptions.key("parq.sink.page-size")
            .memoryType()
            .defaultValue(MemorySize.parse(PAGE_SIZE_DEFAULT))
            .withDescription("Target size of a data page before compression.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE = ConfigOptions.key("parq.sink.target-file-size")
            .memoryType()
            .defaultValue(MemorySize.parse(TARGET_FILE_SIZE_DEFAULT))
            .withDescription("Size of a part file: convert rolls to a new file once a file reaches it, with row"
                    + " groups no larger than it, so that no file exceeds it by more than one row group; ingest"
                    + " compacts the files it commits on each checkpoint into files of about this size.");

    public static final ConfigOption<Boolean> DICTIONARY = ConfigOptions.key("parq.sink.dictionary")
            .booleanType()
            .defaultValue(true)
            .withDescription("Dictionary-encode the columns with few distinct values: each file samples its"
                    + " first batch and writes a column plain when more than a fifth of the sampled values"
                    + " are distinct or its dictionary would outgrow a page; Parquet still falls back to plain"
                    + " encoding per column chunk if a dictionary grows too large. False writes every column plain.");

    private ParquetSinkOptions() {}

    /**
     * Checks every setting of the sink in {@code config}: a known codec, a row group from 4 KiB to
     * 2 GiB, a page from 1 KiB to 64 MiB (a page is one array), a
     * target file size from 1 MiB to 1 TiB.
     *
     * @throws InvalidOptionException naming the first key whose value is not accepted
     */
    public static void validate(ReadableConfig config) {
        OptionChecks.oneOf(config, COMPRESSION, Compression.names());
        OptionChecks.size(config, ROW_GROUP_SIZE, MemorySize.parse("4kb"), MemorySize.parse("2gb"));
        OptionChecks.size(config, PAGE_SIZE, MemorySize.parse("1kb"), MemorySize.parse("64mb"));
        OptionChecks.size(config, TARGET_FILE_SIZE, MemorySize.parse("1mb"), MemorySize.parse("1tb"));
        OptionChecks.read(config, DICTIONARY);
    }
}
