package dev.parq.job.pipeline;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.schema.SchemaOptions;
import dev.parq.sink.ParquetSinkOptions;
import dev.parq.sink.partition.PartitionOptions;
import dev.parq.source.NdjsonSourceOptions;

/**
 * The settings of a run that belong to no one component: what to read, where to write, the schema,
 * the tensor's columns. Each component declares its own ({@link NdjsonSourceOptions},
 * {@link ParseOptions}, {@link SchemaOptions}, {@link ParquetSinkOptions}). The command line, the
 * {@code flink-conf/config.yaml} file and a Kubernetes manifest's {@code flinkConfiguration} all set
 * these same keys; a command-line flag wins over the configuration.
 */
public final class ParqOptions {

    public static final String TENSOR_DTYPE_DEFAULT = "float64";
    public static final String CHECKPOINT_INTERVAL_DEFAULT = "10s";
    public static final String DISCOVER_INTERVAL_DEFAULT = "1s";
    public static final String COMPACTION_INTERVAL_DEFAULT = "1min";
    public static final String STOP_TIMEOUT_DEFAULT = "1min";

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

    public static final ConfigOption<Boolean> OVERWRITE = ConfigOptions.key("parq.overwrite")
            .booleanType()
            .defaultValue(false)
            .withDescription("Replace the contents of a non-empty output directory.");

    public static final ConfigOption<Boolean> SHIP_JAR = ConfigOptions.key("parq.cluster.ship-jar")
            .booleanType()
            .defaultValue(true)
            .withDescription("On a cluster (flink run): send parq-job.jar with the job. False where every process of"
                    + " the cluster has parq-job.jar on its class path and loads parent-first (deploy/local/cluster"
                    + " start writes it so): the job then runs the cluster's copy of parq, and the client uploads"
                    + " no jar.");

    public static final ConfigOption<String> TENSOR_COLUMNS = ConfigOptions.key("parq.tensor.columns")
            .stringType()
            .noDefaultValue()
            .withDescription("tensor: the numeric fields that become the array's columns, comma-separated"
                    + " dotted paths such as 'latency,user.id', in column order.");

    public static final ConfigOption<String> TENSOR_DTYPE = ConfigOptions.key("parq.tensor.dtype")
            .stringType()
            .defaultValue(TENSOR_DTYPE_DEFAULT)
            .withDescription("tensor: the element type of the array, float32 or float64.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("parq.ingest.checkpoint-interval")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(CHECKPOINT_INTERVAL_DEFAULT))
            .withDescription("ingest: how often a checkpoint commits the Parquet files written since the last one.");

    public static final ConfigOption<Duration> COMPACTION_INTERVAL = ConfigOptions.key("parq.ingest.compaction-interval")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(COMPACTION_INTERVAL_DEFAULT))
            .withDescription("ingest: how long the files committed on checkpoints wait at most, hidden, to be compacted"
                    + " into visible files of about the target file size: the files waiting are compacted once they"
                    + " reach that size, and at the latest at the first checkpoint this long after the last compaction"
                    + " (in whole checkpoints, at least one); all of them at the first checkpoint after a backlog (a"
                    + " split's worth of lines found at once) is read, which the source asks for then.");

    public static final ConfigOption<Duration> DISCOVER_INTERVAL = ConfigOptions.key("parq.ingest.discover-interval")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(DISCOVER_INTERVAL_DEFAULT))
            .withDescription("ingest: how often the inputs are looked at for new files and new lines.");

    public static final ConfigOption<String> STATE_DIR = ConfigOptions.key("parq.ingest.state-dir")
            .stringType()
            .noDefaultValue()
            .withDescription("ingest: where checkpoints and savepoints are kept; OUTPUT/_state when unset.");

    public static final ConfigOption<Boolean> FORCE = ConfigOptions.key("parq.ingest.force")
            .booleanType()
            .defaultValue(false)
            .withDescription("ingest: resume even from a snapshot older than the newest checkpoint committed to the"
                    + " output (the newer ones deleted or unreadable), or from none (the state removed), though the"
                    + " lines committed since are then written again; never from another output's snapshots.");

    public static final ConfigOption<Duration> STOP_TIMEOUT = ConfigOptions.key("parq.ingest.stop-timeout")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(STOP_TIMEOUT_DEFAULT))
            .withDescription("ingest: how long a stop (SIGTERM, Ctrl-C) waits for the savepoint that makes the rows"
                    + " read so far compacted and visible at the stop; past it, it stops with a savepoint anyway,"
                    + " and the rows not yet compacted become visible at the next start.");

    /** The classes that declare parq's options, each as public static {@code ConfigOption} fields. */
    private static final List<Class<?>> DECLARING_CLASSES = List.of(
            ParqOptions.class, NdjsonSourceOptions.class, ParseOptions.class, SchemaOptions.class,
            ParquetSinkOptions.class, PartitionOptions.class);

    private ParqOptions() {}

    /**
     * Every parq option, each component's and these, by key: the keys that {@code flink-conf/config.yaml}
     * and a Kubernetes manifest's {@code flinkConfiguration} may set.
     *
     * @throws IllegalStateException if two options declare one key
     */
    public static Map<String, ConfigOption<?>> all() {
        Map<String, ConfigOption<?>> options = new LinkedHashMap<>();
        for (Class<?> type : DECLARING_CLASSES) {
            for (Field field : type.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                    ConfigOption<?> option;
                    try {
                        option = (ConfigOption<?>) field.get(null);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException("cannot read " + type.getName() + "." + field.getName(), e);
                    }
                    if (options.put(option.key(), option) != null) {
                        throw new IllegalStateException("declared twice: " + option.key());
                    }
                }
            }
        }
        return Collections.unmodifiableMap(options);
    }

    /**
     * Checks every parq setting in {@code config}, each component's and these, once, before a run
     * starts: whether it came from a flag or from the configuration file.
     *
     * @throws ConversionException a usage error naming the first key whose value is not accepted
     */
    public static void validate(ReadableConfig config) throws ConversionException {
        try {
            NdjsonSourceOptions.validate(config);
            ParseOptions.validate(config);
            SchemaOptions.validate(config);
            ParquetSinkOptions.validate(config);
            PartitionOptions.validate(config);
            OptionChecks.read(config, OVERWRITE);
            OptionChecks.read(config, FORCE);
            OptionChecks.oneOf(config, TENSOR_DTYPE, List.of("float32", "float64"));
            OptionChecks.duration(config, CHECKPOINT_INTERVAL, Duration.ofMillis(100));
            OptionChecks.duration(config, COMPACTION_INTERVAL, Duration.ofMillis(100));
            OptionChecks.duration(config, DISCOVER_INTERVAL, Duration.ofMillis(10));
            OptionChecks.duration(config, STOP_TIMEOUT, Duration.ofMillis(100));
        } catch (InvalidOptionException e) {
            throw ConversionException.usage(e.getMessage());
        }
    }
}
