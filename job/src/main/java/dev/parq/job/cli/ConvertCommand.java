package dev.parq.job.cli;

import java.util.concurrent.Callable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.ConvertRun;
import dev.parq.schema.SchemaOptions;
import dev.parq.sink.ParquetSinkOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code parq convert INPUT... -o OUTPUT}: the batch conversion. */
@Command(
        name = "convert",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Converts NDJSON files to Parquet files in OUTPUT.",
            "Every input line ends up either as a Parquet row or, with --on-error reject, in"
                    + " OUTPUT/_rejected/; OUTPUT/_SUCCESS is a JSON manifest of the run.",
            "Options not given are read from $FLINK_CONF_DIR/config.yaml (parq.* keys), then defaulted."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:converted", "1:the conversion failed (bad line with --on-error fail, I/O error)",
            "2:usage error (bad option, missing input, non-empty output without --overwrite)"})
public final class ConvertCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PipelineFlags pipeline;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUTPUT",
            description = "Output directory (created if missing; must be empty unless --overwrite).")
    String output;

    @Option(names = "--schema", paramLabel = "DDL|@FILE",
            description = "Columns in Flink SQL type syntax, e.g. 'id BIGINT, user ROW<name STRING>,"
                    + " ts TIMESTAMP_LTZ(3)', or @FILE. Default: inferred from a sample of the input.")
    String schema;

    @Mixin
    UnknownFieldsFlag unknownFields;

    @Option(names = "--compression", paramLabel = "CODEC",
            description = "snappy, zstd, gzip, lz4_raw or none. Default: " + ParquetSinkOptions.COMPRESSION_DEFAULT + ".")
    String compression;

    @Option(names = "--row-group-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Parquet row group size (as buffered in memory; smaller when many writers share the heap). Default: "
                    + ParquetSinkOptions.ROW_GROUP_SIZE_DEFAULT + ".")
    MemorySize rowGroupSize;

    @Mixin
    OutputFlags layout;

    @Option(names = "--sample-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Input read for schema inference, spread across the files. Default: "
                    + SchemaOptions.SAMPLE_SIZE_DEFAULT + ".")
    MemorySize sampleSize;

    @Override
    public Integer call() {
        return pipeline.run(spec, this::configuration, ConvertRun::run, Summary::print);
    }

    /** The Flink configuration (parq.* keys included), overridden by the flags given. */
    Configuration configuration() throws ConversionException {
        Configuration config = pipeline.configuration(output);
        if (schema != null) {
            config.set(ParqOptions.SCHEMA, SchemaArgument.read(schema, spec.commandLine()));
        }
        unknownFields.applyTo(config);
        if (compression != null) {
            config.set(ParquetSinkOptions.COMPRESSION, compression);
        }
        if (rowGroupSize != null) {
            config.set(ParquetSinkOptions.ROW_GROUP_SIZE, rowGroupSize);
        }
        if (sampleSize != null) {
            config.set(SchemaOptions.SAMPLE_SIZE, sampleSize);
        }
        layout.applyTo(config);
        return config;
    }
}
