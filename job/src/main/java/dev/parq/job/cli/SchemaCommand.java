package dev.parq.job.cli;

import java.util.List;
import java.util.concurrent.Callable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.embedded.EmbeddedFileSystems.Patience;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConvertSettings;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.schema.SchemaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code parq schema INPUT...}: prints the schema inferred from a sample of the input. */
@Command(
        name = "schema",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the schema convert would infer, as --schema takes it.",
            "The sample is spread across the whole input, not only its head.",
            "Options not given are read from $FLINK_CONF_DIR/config.yaml (parq.* keys), then defaulted."
        })
public final class SchemaCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "NDJSON files, directories or globs; local, or URIs such as s3a://bucket/logs/*.ndjson.")
    List<String> inputs;

    @Mixin
    FlinkFlags flink;

    @Option(names = "--sample-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Input to read, spread across the files. Default: " + SchemaOptions.SAMPLE_SIZE_DEFAULT + ".")
    MemorySize sampleSize;

    @Override
    public Integer call() {
        try {
            Configuration config = flink.load(inputs, Patience.COMMAND);
            config.set(ParqOptions.INPUTS, inputs);
            if (sampleSize != null) {
                config.set(SchemaOptions.SAMPLE_SIZE, sampleSize);
            }
            System.out.println(ConvertSettings.inferred(config).toDdl());
            return 0;
        } catch (ConversionException e) {
            System.err.println("parq: " + FailureWording.of(e));
            return e.exitCode();
        }
    }
}
