package dev.parq.job.cli;

import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.ParqOptions;
import dev.parq.parse.operator.OnError;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of every command that reads NDJSON through the pipeline (convert, tensor), and how
 * they land on the Flink configuration: a flag given wins over the configuration file.
 */
public final class IngestOptions {

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "NDJSON files, directories or globs.")
    List<String> inputs;

    @Option(names = "--split-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Input is cut into splits of about this size, at line starts. Default: 64mb.")
    MemorySize splitSize;

    @Option(names = {"-p", "--parallelism"}, paramLabel = "N",
            description = "Parallel parsers and writers. Default: all cores (or the cluster's default).")
    Integer parallelism;

    @Option(names = "--on-error", paramLabel = "MODE",
            description = "fail: stop at the first bad line, naming its file and byte offset (default);"
                    + " reject: write bad lines to the rejected-lines output and go on.")
    String onError;

    @Option(names = "--overwrite", description = "Replace an existing output.")
    boolean overwrite;

    @Option(names = "--no-progress", description = "No progress line, even on a terminal.")
    boolean noProgress;

    /**
     * The Flink configuration ($FLINK_CONF_DIR/config.yaml when set, parq.* keys included) with
     * these flags and the output applied.
     *
     * @throws IllegalArgumentException naming a flag whose value is out of range
     */
    Configuration configuration(String output) {
        Configuration config = System.getenv("FLINK_CONF_DIR") != null
                ? GlobalConfiguration.loadConfiguration(System.getenv("FLINK_CONF_DIR"))
                : new Configuration();
        config.set(ParqOptions.INPUTS, inputs);
        config.set(ParqOptions.OUTPUT, output);
        if (splitSize != null) {
            config.set(ParqOptions.SPLIT_SIZE, splitSize);
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("--parallelism must be at least 1, got " + parallelism);
            }
            config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        if (onError != null) {
            config.set(ParqOptions.ON_ERROR, OnError.parse(onError));
        }
        if (overwrite) {
            config.set(ParqOptions.OVERWRITE, true);
        }
        return config;
    }

    /** A progress line on the terminal, or null when there is no terminal or it was turned off. */
    Progress progress() {
        return !noProgress && System.console() != null ? new Progress(System.err) : null;
    }
}
