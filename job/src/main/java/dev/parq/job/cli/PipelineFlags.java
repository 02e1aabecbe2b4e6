package dev.parq.job.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import org.apache.flink.configuration.Configuration;

import dev.parq.job.embedded.EmbeddedFileSystems.Patience;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.ProgressListener;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of every command that reads NDJSON through the pipeline (convert, tensor), and how
 * they land on the Flink configuration: a flag given wins over the configuration file.
 */
public final class PipelineFlags {

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "NDJSON files, directories or globs; local, or URIs such as s3a://bucket/logs/*.ndjson.")
    List<String> inputs;

    @Mixin
    ReadingFlags reading;

    @Mixin
    FlinkFlags flink;

    @Option(names = "--overwrite", description = "Replace an existing output.")
    boolean overwrite;

    @Option(names = "--no-progress", description = "No progress line, even on a terminal.")
    boolean noProgress;

    /**
     * The Flink configuration ($FLINK_CONF_DIR/config.yaml when set, parq.* keys included) with
     * these flags and the output applied.
     *
     * @throws ConversionException a usage error naming a flag whose value is out of range, or the
     *     configuration file if it cannot be read
     */
    Configuration configuration(String output) throws ConversionException {
        List<String> locations = new ArrayList<>(inputs);
        locations.add(output);
        Configuration config = flink.load(locations, Patience.COMMAND);
        config.set(ParqOptions.INPUTS, inputs);
        config.set(ParqOptions.OUTPUT, output);
        reading.applyTo(config);
        if (overwrite) {
            config.set(ParqOptions.OVERWRITE, true);
        }
        return config;
    }

    /** The configuration of a run: the file's, with the command's flags applied. */
    @FunctionalInterface
    interface Settings {
        Configuration get() throws ConversionException;
    }

    /** Runs one pipeline job with the flags applied to its configuration. */
    @FunctionalInterface
    interface Job<R> {
        R run(Configuration config, ProgressListener progress) throws ConversionException;
    }

    /**
     * Runs a job and prints its summary: the one flow of every pipeline command. A progress line is
     * shown on a terminal unless turned off; a failure prints its message and returns its exit code.
     */
    <R> int run(CommandSpec spec, Settings configuration, Job<R> job, BiConsumer<R, PrintStream> summary) {
        Configuration config;
        try {
            config = configuration.get();
        } catch (ConversionException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Progress progress = !noProgress && System.console() != null ? new Progress(System.err) : null;
        R result;
        try {
            result = job.run(config, progress);
        } catch (ConversionException e) {
            finish(progress);
            System.err.println("parq: " + FailureWording.of(e));
            return e.exitCode();
        }
        finish(progress);
        summary.accept(result, System.out);
        return 0;
    }

    /** Clears the progress line before anything else is printed. */
    private static void finish(Progress progress) {
        if (progress != null) {
            progress.finish();
        }
    }
}
