package dev.parq.schema;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;

/** Every setting of schema inference, with its default. */
public final class SchemaOptions {

    public static final String SAMPLE_SIZE_DEFAULT = "16mb";

    public static final ConfigOption<MemorySize> SAMPLE_SIZE = ConfigOptions.key("parq.schema.sample-size")
            .memoryType()
            .defaultValue(MemorySize.parse(SAMPLE_SIZE_DEFAULT))
            .withDescription("How much input schema inference reads, spread across the input.");

    private SchemaOptions() {}

    /**
     * Checks every setting of schema inference in {@code config}: a sample from 1 KiB to 1 GiB (it
     * is read into memory).
     *
     * @throws InvalidOptionException naming the first key whose value is not accepted
     */
    public static void validate(ReadableConfig config) {
        OptionChecks.size(config, SAMPLE_SIZE, MemorySize.parse("1kb"), MemorySize.parse("1gb"));
    }
}
