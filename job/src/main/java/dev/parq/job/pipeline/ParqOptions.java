package dev.parq.job.pipeline;

import java.time.Duration;
import java.util.List;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import dev.parq.parse.operator.OnError;
import dev.parq.sink.ParquetSinkOptions;
import dev.parq.source.NdjsonSourceOptions;

/**
 * Every setting of a conversion, as Flink configuration options. The command line, the
 * {@code flink-conf/config.yaml} file and a Kubernetes manifest's {@code flinkConfiguration} all
 * set these same keys; a command-line flag wins over the configuration.
 */
public final class ParqOptions {

    public static final ConfigOption<List<String>> INPUTS = ConfigOptions.key("parq.inputs")
            .stringType()
            .asList()
            .noDefaultValue()
            .withDescription("Input files, directories or globs of NDJSON.");

    public static final ConfigOption<String> OUTPUT = ConfigOptions.key("parq.output")
            .stringType()
            .noDefaultValue()
            .withDescription("Output directory for the Parquet files, _rejected/ and _SUCCESS; for tensor,"
                    + " the array file.");

    public static final ConfigOption<String> SCHEMA = ConfigOptions.key("parq.schema")
            .stringType()
            .noDefaultValue()
            .withDescription("Column list in Flink SQL type syntax; inferred from a sample when unset.");

    public static final ConfigOption<MemorySize> SAMPLE_SIZE = ConfigOptions.key("parq.schema.sample-size")
            .memoryType()
            .defaultValue(MemorySize.parse("16mb"))
            .withDescription("How much input schema inference reads, spread across the input.");

    public static final ConfigOption<String> COMPRESSION = ParquetSinkOptions.COMPRESSION;

    public static final ConfigOption<MemorySize> ROW_GROUP_SIZE = ParquetSinkOptions.ROW_GROUP_SIZE;

    public static final ConfigOption<MemorySize> SPLIT_SIZE = NdjsonSourceOptions.SPLIT_SIZE;

    public static final ConfigOption<OnError> ON_ERROR = ConfigOptions.key("parq.on-error")
            .enumType(OnError.class)
            .defaultValue(OnError.FAIL)
            .withDescription("What a bad line does: FAIL the conversion, or REJECT it to _rejected/.");

    public static final ConfigOption<Boolean> OVERWRITE = ConfigOptions.key("parq.overwrite")
            .booleanType()
            .defaultValue(false)
            .withDescription("Replace the contents of a non-empty output directory.");

    public static final ConfigOption<Integer> BATCH_ROWS = ConfigOptions.key("parq.parse.batch-rows")
            .intType()
            .defaultValue(4096)
            .withDescription("Most rows per Arrow batch handed from the parser to the Parquet writer;"
                    + " a batch also ends at 8 MiB of input, so that rows of long values make smaller batches.");

    public static final ConfigOption<Duration> TEST_SINK_BATCH_DELAY = ConfigOptions.key("parq.test.sink-batch-delay")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDescription("Test hook: the Parquet writer sleeps this long after each batch, to make the"
                    + " sink the slow stage when testing backpressure. Leave at 0.");

    public static final ConfigOption<String> TENSOR_COLUMNS = ConfigOptions.key("parq.tensor.columns")
            .stringType()
            .noDefaultValue()
            .withDescription("tensor: the numeric fields that become the array's columns, comma-separated"
                    + " dotted paths such as 'latency,user.id', in column order.");

    public static final ConfigOption<String> TENSOR_DTYPE = ConfigOptions.key("parq.tensor.dtype")
            .stringType()
            .defaultValue("float64")
            .withDescription("tensor: the element type of the array, float32 or float64.");

    private ParqOptions() {}
}
