package dev.parq.job.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.parse.operator.OnError;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.source.NdjsonSourceOptions;
import picocli.CommandLine.Option;

/** The flags of how NDJSON is read and parsed, shared by convert, tensor and ingest. */
public final class ReadingFlags {

    @Option(names = "--split-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Input is cut into splits of about this size, at line starts. Default: "
                    + NdjsonSourceOptions.SPLIT_SIZE_DEFAULT + ".")
    MemorySize splitSize;

    @Option(names = {"-p", "--parallelism"}, paramLabel = "N",
            description = "Parallel readers, parsers and writers. Default: all cores (or the cluster's default).")
    Integer parallelism;

    @Option(names = "--on-error", paramLabel = "MODE",
            description = "fail: stop at the first bad line, naming its file and byte offset;"
                    + " reject: write bad lines to the rejected-lines output and go on. Default: "
                    + ParseOptions.ON_ERROR_DEFAULT + ".")
    String onError;

    /**
     * Sets the flags given on {@code config}.
     *
     * @throws ConversionException a usage error naming a flag whose value is out of range
     */
    void applyTo(Configuration config) throws ConversionException {
        if (splitSize != null) {
            config.set(NdjsonSourceOptions.SPLIT_SIZE, splitSize);
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw ConversionException.usage("--parallelism must be at least 1, got " + parallelism);
            }
            config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        if (onError != null) {
            config.set(ParseOptions.ON_ERROR, OnError.parse(onError));
        }
    }
}
