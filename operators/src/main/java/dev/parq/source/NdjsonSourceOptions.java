package dev.parq.source;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Every setting of the NDJSON source, with its default. */
public final class NdjsonSourceOptions {

    public static final ConfigOption<MemorySize> SPLIT_SIZE = ConfigOptions.key("parq.source.split-size")
            .memoryType()
            .defaultValue(MemorySize.parse("64mb"))
            .withDescription("Nominal size of a split: each input file is cut into windows of this size,"
                    + " each end moved forward to the next line start.");

    public static final ConfigOption<MemorySize> CHUNK_SIZE = ConfigOptions.key("parq.source.chunk-size")
            .memoryType()
            .defaultValue(MemorySize.parse("4mb"))
            .withDescription("How much of a split a reader maps and hands to the parser at a time;"
                    + " bounds the resident mapped pages per reader.");

    private NdjsonSourceOptions() {}
}
