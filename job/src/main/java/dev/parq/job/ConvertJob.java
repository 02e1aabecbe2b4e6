package dev.parq.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowBatchSerializer;
import dev.parq.job.cli.IngestOptions;
import dev.parq.parse.BadLineException;
import dev.parq.sink.OutOfHeapException;
import dev.parq.parse.UnknownField;
import dev.parq.parse.operator.ConversionCounters;
import dev.parq.parse.operator.OnError;
import dev.parq.parse.operator.ParseOperator;
import dev.parq.schema.SchemaException;
import dev.parq.schema.SchemaInference;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ParquetSinks;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.source.NdjsonSource;
import dev.parq.source.enumerator.InputFile;
import dev.parq.source.enumerator.InputFiles;
import dev.parq.source.reader.LineChunk;

/**
 * One conversion: NDJSON files are read by the mapped source, parsed into Arrow batches and
 * written as Parquet; bad lines go to {@code _rejected/}; at the end the counts are checked and
 * the {@code _SUCCESS} manifest is written.
 */
public final class ConvertJob {

    public static final String REJECTED_DIR = "_rejected";
    public static final String MANIFEST = "_SUCCESS";

    /** What every bad-line failure message says, whichever exception type carried it to the client. */
    private static final String BAD_LINE = ": bad line at byte ";

    private ConvertJob() {}

    /** Source, parse, sink: the whole pipeline. */
    static void buildPipeline(StreamExecutionEnvironment env, Settings settings) {
        SingleOutputStreamOperator<ArrowBatch> batches = readAndParse(
                env, settings.source(), settings.schema(), settings.onError(), settings.batchRows());
        batches.sinkTo(ParquetSinks.forBatches(
                        new org.apache.flink.core.fs.Path(settings.output().toUri()),
                        settings.schema().rowType(),
                        settings.writerOptions()))
                .name("write Parquet");
        batches.getSideOutput(ParseOperator.REJECTED)
                .sinkTo(rejectedLinesSink(settings.output().resolve(REJECTED_DIR)))
                .name("write rejected lines");
    }

    /**
     * The first two stages, shared by every command that reads NDJSON: the mapped source and the
     * parser, whose main output is Arrow batches and whose {@link ParseOperator#REJECTED} side
     * output is the bad lines.
     */
    static SingleOutputStreamOperator<ArrowBatch> readAndParse(StreamExecutionEnvironment env, NdjsonSource source,
            TableSchema schema, OnError onError, int batchRows) {
        DataStream<LineChunk> lines = env.fromSource(source, WatermarkStrategy.noWatermarks(), "read NDJSON");
        return lines.transform("parse to Arrow", ArrowBatchSerializer.TYPE, new ParseOperator(schema, onError, batchRows));
    }

    /** Bad lines as NDJSON records in {@code rejected-*.ndjson} files of {@code directory}. */
    static FileSink<String> rejectedLinesSink(Path directory) {
        return FileSink.forRowFormat(
                        new org.apache.flink.core.fs.Path(directory.toUri()), new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix("rejected")
                        .withPartSuffix(".ndjson")
                        .build())
                .build();
    }

    /**
     * Runs a conversion to the end and writes its manifest.
     *
     * @param progress told about the bytes parsed about once a second, or null
     */
    public static Manifest run(Configuration config, ProgressListener progress) throws ConversionException {
        long started = System.nanoTime();
        Settings.requiredInputs(config);
        Settings.requiredOutput(config, "directory");
        try (JobEnvironment environment = begin(config)) {
            Settings settings = Settings.resolve(config);
            boolean created = prepareOutput(settings.output(), settings.overwrite());
            StreamExecutionEnvironment env = environment.env();
            buildPipeline(env, settings);

            JobExecutionResult result;
            try (UnfinishedOutput unfinished =
                    UnfinishedOutput.watch(settings.output(), created, "the conversion", environment.embedded())) {
                result = unfinished.execute(env, "parq convert to " + settings.output(), settings.totalBytes(),
                        progress);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            Manifest manifest = Manifest.collect(settings, counters(result), elapsedMs);
            manifest.checkCounts();
            manifest.write(settings.output().resolve(MANIFEST));
            return manifest;
        }
    }

    /**
     * A batch-mode environment with object reuse for the run configured by {@code config}
     * ({@code parallelism.default} from the flags or the configuration file, else Flink's default).
     * Embedded, its cluster starts now, in the background, while the caller resolves the run's
     * settings (schema inference included); close it when the run ends.
     */
    static JobEnvironment begin(Configuration config) {
        JobEnvironment environment = JobEnvironment.begin(flinkConfig(config));
        StreamExecutionEnvironment env = environment.env();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.getConfig().enableObjectReuse();
        return environment;
    }

    /**
     * Starts the embedded cluster that {@link #begin} will ask for, given the configuration file
     * and the {@code parallelism} of the command line (0 if none), before the command line is
     * parsed (see {@link JobEnvironment#prestart}).
     */
    static void prestart(int parallelism) {
        Configuration config = IngestOptions.flinkConfiguration();
        if (parallelism > 0) {
            config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        JobEnvironment.prestart(flinkConfig(config));
    }

    private static Configuration flinkConfig(Configuration config) {
        Configuration flink = new Configuration(config);
        flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        flink.set(PipelineOptions.OBJECT_REUSE, true);
        if (!config.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            // A bad line fails the same way on every attempt: fail fast, with its message.
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        if (!config.contains(HeartbeatManagerOptions.HEARTBEAT_INTERVAL)) {
            // Accumulators reach the client with task heartbeats: once a second keeps progress live.
            flink.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(1));
        }
        return flink;
    }

    /**
     * Runs the job to its end, telling {@code started} its client once it is submitted and
     * {@code progress} (if not null) about the bytes parsed of {@code totalBytes} about once a second.
     */
    static JobExecutionResult execute(StreamExecutionEnvironment env, String jobName, long totalBytes,
            ProgressListener progress, Consumer<JobClient> started) throws ConversionException {
        JobClient client;
        try {
            client = env.executeAsync(jobName);
        } catch (Exception e) {
            throw ConversionException.failed("could not start the conversion: " + describe(e), e);
        }
        started.accept(client);
        CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
        try {
            while (true) {
                try {
                    return done.get(1, TimeUnit.SECONDS);
                } catch (TimeoutException stillRunning) {
                    if (progress != null) {
                        reportProgress(client, totalBytes, progress);
                    }
                }
            }
        } catch (ExecutionException e) {
            throw ConversionException.failed(describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.cancel();
            throw ConversionException.failed("interrupted; the conversion was cancelled", e);
        }
    }

    private static void reportProgress(JobClient client, long totalBytes, ProgressListener progress) {
        try {
            Map<String, Object> accumulators = client.getAccumulators().get(1, TimeUnit.SECONDS);
            Object bytes = accumulators.get(ConversionCounters.BYTES_IN);
            if (bytes instanceof Long) {
                progress.update((Long) bytes, totalBytes);
            }
        } catch (TimeoutException | ExecutionException e) {
            // Progress is best effort; the job result decides success.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Counters counters(JobExecutionResult result) {
        Map<String, UnknownField> unknown = result.getAccumulatorResult(ConversionCounters.UNKNOWN_FIELDS);
        return new Counters(
                longOrZero(result.getAccumulatorResult(ConversionCounters.BYTES_IN)),
                longOrZero(result.getAccumulatorResult(ConversionCounters.RECORDS_IN)),
                longOrZero(result.getAccumulatorResult(ConversionCounters.REJECTED)),
                unknown == null ? Map.of() : unknown);
    }

    private static long longOrZero(Object value) {
        return value == null ? 0 : (Long) value;
    }

    /** The counts the parsers kept, merged across all of them. */
    record Counters(long bytesIn, long recordsIn, long rejected, Map<String, UnknownField> unknownFields) {}

    /** The first bad-line message in a failure's causes, or else its root cause. */
    static String describe(Throwable failure) {
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BadLineException || t instanceof OutOfHeapException) {
                return t.getMessage();
            }
            if (t instanceof OutOfMemoryError) {
                return "a task ran out of memory (" + t.getMessage() + "): very long lines, or very wide rows, need"
                        + " a larger heap (./parq: PARQ_JAVA_OPTS=-Xmx2g; a Flink cluster:"
                        + " taskmanager.memory.task.heap.size)";
            }
            String text = String.valueOf(t.getMessage());
            if (text.contains(BAD_LINE)) {
                return text.trim();
            }
            root = t;
            if (t.getCause() == t) {
                break;
            }
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /**
     * Makes {@code output} an empty directory: creates it, or empties it with {@code overwrite}.
     * Returns whether it was created.
     */
    private static boolean prepareOutput(Path output, boolean overwrite) throws ConversionException {
        try {
            if (Files.exists(output) && !Files.isDirectory(output)) {
                throw ConversionException.usage("output " + output + " exists and is not a directory");
            }
            if (Files.isDirectory(output)) {
                boolean empty;
                try (Stream<Path> entries = Files.list(output)) {
                    empty = entries.findAny().isEmpty();
                }
                if (!empty) {
                    if (!overwrite) {
                        throw ConversionException.usage("output directory " + output
                                + " is not empty; pass --overwrite to replace its contents");
                    }
                    deleteContents(output);
                }
            }
            boolean created = !Files.isDirectory(output);
            Files.createDirectories(output);
            return created;
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare output directory " + output + ": " + e, e);
        }
    }

    /**
     * Deletes everything in {@code directory}, deepest first. What vanishes meanwhile (the files of
     * tasks being cancelled) counts as deleted.
     */
    static void deleteContents(Path directory) throws IOException {
        try (Stream<Path> entries = Files.walk(directory)) {
            for (Path path : entries.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                if (!path.equals(directory)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
        }
    }

    /** A conversion's settings, resolved from the configuration and checked before the job starts. */
    record Settings(
            List<InputFile> inputFiles,
            Path output,
            TableSchema schema,
            OnError onError,
            NdjsonSource source,
            ParquetWriterOptions writerOptions,
            int batchRows,
            boolean overwrite) {

        static Settings resolve(Configuration config) throws ConversionException {
            List<String> inputs = requiredInputs(config);
            String output = requiredOutput(config, "directory");
            List<InputFile> files = expandInputs(inputs);
            TableSchema schema;
            if (config.getOptional(ParqOptions.SCHEMA).isPresent()) {
                try {
                    schema = TableSchema.parse(config.get(ParqOptions.SCHEMA));
                } catch (SchemaException e) {
                    throw ConversionException.usage(e.getMessage());
                }
            } else {
                try {
                    schema = SchemaInference.infer(
                            files.stream().map(f -> Path.of(f.path())).toList(),
                            config.get(ParqOptions.SAMPLE_SIZE).getBytes());
                } catch (SchemaException | UncheckedIOException e) {
                    throw ConversionException.failed("cannot infer a schema: " + e.getMessage()
                            + "; give one with --schema", e);
                }
            }
            ParquetWriterOptions writerOptions;
            try {
                writerOptions = ParquetWriterOptions.fromConfig(config)
                        .withBatchDelay(config.get(ParqOptions.TEST_SINK_BATCH_DELAY));
            } catch (IllegalArgumentException e) {
                throw ConversionException.usage(e.getMessage());
            }
            return new Settings(
                    files,
                    Path.of(output).toAbsolutePath().normalize(),
                    schema,
                    config.get(ParqOptions.ON_ERROR),
                    NdjsonSource.builder(inputs).configure(config).build(),
                    writerOptions,
                    config.get(ParqOptions.BATCH_ROWS),
                    config.get(ParqOptions.OVERWRITE));
        }

        long totalBytes() {
            return InputFiles.totalBytes(inputFiles);
        }

        /** The input files, in input order; a missing input is a usage error. */
        static List<String> requiredInputs(Configuration config) throws ConversionException {
            List<String> inputs = config.getOptional(ParqOptions.INPUTS).orElse(List.of());
            if (inputs.isEmpty()) {
                throw ConversionException.usage("no input given");
            }
            return inputs;
        }

        static String requiredOutput(Configuration config, String what) throws ConversionException {
            return config.getOptional(ParqOptions.OUTPUT)
                    .orElseThrow(() -> ConversionException.usage("no output " + what + " given (-o)"));
        }

        static List<InputFile> expandInputs(List<String> inputs) throws ConversionException {
            try {
                return InputFiles.expand(inputs);
            } catch (dev.parq.source.enumerator.InputNotFoundException e) {
                throw ConversionException.usage(e.getMessage());
            } catch (IOException e) {
                throw ConversionException.failed("cannot read the inputs: " + e, e);
            }
        }
    }
}
