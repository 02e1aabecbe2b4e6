package dev.parq.job.pipeline;

import java.io.IOException;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.io.StandardInput;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.parse.operator.OnError;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.schema.TableSchema;
import dev.parq.source.NdjsonSource;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.InputFiles;
import dev.parq.source.enumerate.InputNotFoundException;
import dev.parq.source.enumerator.CheckpointRequest;

/**
 * How a command reads NDJSON: the input files as the client resolved them, the source over them,
 * the schema the parser decodes into, what a bad line does, whether the keys not in the schema are
 * kept, and the batch size.
 */
public record Reading(List<InputFile> inputFiles, NdjsonSource source, TableSchema schema, OnError onError,
        UnknownFieldsMode unknownFields, int batchRows) {

    /**
     * The reading of {@code files} into {@code schema}, the rest from {@code config}: the job reads
     * exactly these files, as resolved here, whatever appears or goes meanwhile.
     */
    static Reading of(Configuration config, List<InputFile> files, TableSchema schema, UnknownFieldsMode unknownFields) {
        return new Reading(files, NdjsonSource.builder(files).configure(config).build(), schema,
                config.get(ParseOptions.ON_ERROR), unknownFields, config.get(ParseOptions.BATCH_ROWS));
    }

    /** This reading, its source asking {@code request} for a checkpoint once it has read a backlog. */
    Reading askingAfterBacklog(CheckpointRequest request) {
        return new Reading(inputFiles, source.askingAfterBacklog(request), schema, onError, unknownFields, batchRows);
    }

    /** The columns of the batches and of the Parquet files: the schema's, and the unknown keys' if kept. */
    public RowType outputType() {
        return unknownFields.outputType(schema.rowType());
    }

    /** The bytes to read, for progress and the manifest. */
    public long totalBytes() {
        return InputFiles.totalBytes(inputFiles);
    }

    /** The inputs named in {@code config}; none is a usage error. */
    static List<String> requiredInputs(Configuration config) throws ConversionException {
        List<String> inputs = config.getOptional(ParqOptions.INPUTS).orElse(List.of());
        if (inputs.isEmpty()) {
            throw ConversionException.usage("no input given");
        }
        return inputs;
    }

    /** The output named in {@code config} ({@code what} it is, for the message if it is missing). */
    static String requiredOutput(Configuration config, String what) throws ConversionException {
        return config.getOptional(ParqOptions.OUTPUT)
                .orElseThrow(() -> ConversionException.usage("no output " + what + " given (-o)"));
    }

    /**
     * The files the inputs name, in input order; a missing input is a usage error, and so is
     * standard input where the job does not run in this process.
     */
    static List<InputFile> expand(List<String> inputs) throws ConversionException {
        if (inputs.stream().anyMatch(StandardInput::names) && !StandardInput.enabled()) {
            throw ConversionException.usage("- (standard input) can be read by ./parq (java -jar parq.jar) only,"
                    + " whose job runs in its own process; under flink run the job's tasks run elsewhere: name files");
        }
        for (String input : inputs) {
            if (!StandardInput.names(input)) {
                Storage.check(input, "input");
            }
        }
        try {
            return InputFiles.expand(inputs);
        } catch (InputNotFoundException e) {
            throw ConversionException.usage(e.getMessage());
        } catch (IOException e) {
            throw ConversionException.failed("cannot read the inputs: " + Storage.describe(e), e);
        }
    }
}
