package dev.parq.job.pipeline;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;

import dev.parq.io.Locations;
import dev.parq.io.StandardInput;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.partition.PartitionOptions;
import dev.parq.source.NdjsonSource;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.WatchedInputs;

/**
 * An ingest run's settings: watched inputs, the output, checkpoints and where they are kept, the
 * size of the compacted files and how long the files of checkpoints wait for compaction at most.
 */
public record IngestSettings(Reading reading, Path output, ParquetWriterOptions writerOptions,
        Duration checkpointInterval, Path stateDir, Partitioning partitioning, Duration partitionCommitDelay,
        Duration compactionInterval) {

    /** The default place of checkpoints and savepoints, inside the output (hidden from readers by its '_'). */
    public static final String STATE_DIR = "_state";

    /** As {@link ConvertSettings#check}: the values, then the inputs and the output. */
    public static void check(Configuration config) throws ConversionException {
        ParqOptions.validate(config);
        List<String> inputs = Reading.requiredInputs(config);
        boolean objects = !Locations.isLocal(inputs.get(0));
        for (String input : inputs) {
            if (!StandardInput.names(input) && Locations.isLocal(input) == objects) {
                throw ConversionException.usage("one ingest follows local files (by device and inode, across"
                        + " rotations) or objects under a prefix of an object store, not both: " + inputs.get(0)
                        + " and " + input);
            }
            if (objects) {
                Storage.check(input, "input");
            }
        }
        Storage.check(Reading.requiredOutput(config, "directory"), "output");
    }

    /**
     * Resolves every setting; without a schema, it is inferred from the files there are now, and
     * there must be some.
     */
    public static IngestSettings resolve(Configuration config) throws ConversionException {
        List<String> inputs = Reading.requiredInputs(config);
        if (inputs.stream().anyMatch(StandardInput::names)) {
            throw ConversionException.usage("ingest follows files; to convert standard input, use convert -");
        }
        Path output = Storage.resolve(Reading.requiredOutput(config, "directory"), "output");
        WatchedInputs watched = new WatchedInputs(inputs, config.get(ParqOptions.DISCOVER_INTERVAL));
        List<InputFile> present;
        try {
            present = watched.currentFiles();
        } catch (IOException e) {
            throw ConversionException.failed("cannot read the inputs: " + Storage.describe(e), e);
        }
        TableSchema schema = schema(config, present);
        ParquetWriterOptions writerOptions;
        try {
            writerOptions = ParquetWriterOptions.fromConfig(config);
        } catch (IllegalArgumentException e) {
            throw ConversionException.usage(e.getMessage());
        }
        Reading reading = new Reading(present, NdjsonSource.builder(watched).configure(config).build(), schema,
                config.get(ParseOptions.ON_ERROR), config.get(ParseOptions.UNKNOWN_FIELDS),
                config.get(ParseOptions.BATCH_ROWS));
        Path stateDir = config.getOptional(ParqOptions.STATE_DIR).isPresent()
                ? Storage.resolve(config.get(ParqOptions.STATE_DIR), "--state") : new Path(output, STATE_DIR);
        return new IngestSettings(reading, output, writerOptions, config.get(ParqOptions.CHECKPOINT_INTERVAL), stateDir,
                Partitioning.of(config, reading.outputType()), config.get(PartitionOptions.COMMIT_DELAY),
                config.get(ParqOptions.COMPACTION_INTERVAL));
    }

    /** The compaction interval in checkpoints, rounded up, at least one. */
    public int checkpointsPerCompaction() {
        long checkpoints = -Math.floorDiv(-compactionInterval.toMillis(), checkpointInterval.toMillis());
        return (int) Math.max(1, Math.min(checkpoints, Integer.MAX_VALUE));
    }

    private static TableSchema schema(Configuration config, List<InputFile> present) throws ConversionException {
        if (config.getOptional(ParqOptions.SCHEMA).isEmpty() && present.isEmpty()) {
            throw ConversionException.usage("no input file exists yet to infer a schema from; give one with --schema");
        }
        return ConvertSettings.schema(config, present);
    }
}
