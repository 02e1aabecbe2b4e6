package dev.parq.job.pipeline;

import java.io.UncheckedIOException;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.io.CorruptInputException;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.schema.SchemaException;
import dev.parq.schema.SchemaInference;
import dev.parq.schema.SchemaOptions;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.source.enumerate.InputFile;

/** A conversion's settings, resolved from the configuration and checked before the job starts. */
public record ConvertSettings(Reading reading, Path output, ParquetWriterOptions writerOptions, boolean overwrite,
        Partitioning partitioning) {

    /** Resolves every setting, inferring the schema from the input unless one is given. */
    public static ConvertSettings resolve(Configuration config) throws ConversionException {
        List<String> inputs = Reading.requiredInputs(config);
        Path output = Storage.resolve(Reading.requiredOutput(config, "directory"), "output");
        List<InputFile> files = Reading.expand(inputs);
        TableSchema schema = schema(config, files);
        ParquetWriterOptions writerOptions;
        try {
            writerOptions = ParquetWriterOptions.fromConfig(config);
        } catch (IllegalArgumentException e) {
            throw ConversionException.usage(e.getMessage());
        }
        Reading reading = Reading.of(config, files, schema, config.get(ParseOptions.UNKNOWN_FIELDS));
        return new ConvertSettings(reading, output, writerOptions,
                config.get(ParqOptions.OVERWRITE), Partitioning.of(config, reading.outputType()));
    }

    /**
     * Checks every setting that needs no reading of the input, before anything starts: the values,
     * then the inputs and the output, in the order a user would fix them.
     */
    public static void check(Configuration config) throws ConversionException {
        ParqOptions.validate(config);
        Reading.requiredInputs(config);
        Storage.check(Reading.requiredOutput(config, "directory"), "output");
    }

    /**
     * The schema given in {@code config}, or else the one inferred from {@code files}. With the
     * unknown keys kept, a given schema must not have their column; an inferred one has no column
     * of that name, the key of that name in the input being an unknown key like any other.
     */
    static TableSchema schema(Configuration config, List<InputFile> files) throws ConversionException {
        UnknownFieldsMode unknownFields = config.get(ParseOptions.UNKNOWN_FIELDS);
        if (config.getOptional(ParqOptions.SCHEMA).isPresent()) {
            try {
                TableSchema given = TableSchema.parse(config.get(ParqOptions.SCHEMA));
                unknownFields.check(given.rowType());
                return given;
            } catch (SchemaException e) {
                throw ConversionException.usage(e.getMessage());
            }
        }
        TableSchema inferred;
        try {
            inferred = infer(config, files);
        } catch (ConversionException e) {
            if (e.kind() == ConversionException.Kind.BAD_LINE) {
                throw e;
            }
            throw ConversionException.failed("cannot infer a schema: " + e.getMessage() + "; give one with --schema", e);
        }
        return unknownFields == UnknownFieldsMode.KEEP ? withoutColumn(inferred, UnknownFieldsMode.COLUMN) : inferred;
    }

    private static TableSchema withoutColumn(TableSchema schema, String name) throws ConversionException {
        List<RowType.RowField> kept = schema.rowType().getFields().stream()
                .filter(f -> !f.getName().equals(name)).toList();
        if (kept.isEmpty()) {
            throw ConversionException.failed("cannot infer a schema: the input's only key is " + name
                    + ", which --unknown-fields keep keeps among the unknown keys; give one with --schema", null);
        }
        return kept.size() == schema.rowType().getFieldCount() ? schema : TableSchema.of(new RowType(kept));
    }

    /** The schema {@code convert} would infer for the inputs named in {@code config} ({@code parq schema}). */
    public static TableSchema inferred(Configuration config) throws ConversionException {
        ParqOptions.validate(config);
        return infer(config, Reading.expand(Reading.requiredInputs(config)));
    }

    private static TableSchema infer(Configuration config, List<InputFile> files) throws ConversionException {
        try {
            return SchemaInference.infer(files.stream().map(InputFile::path).toList(),
                    config.get(SchemaOptions.SAMPLE_SIZE).getBytes());
        } catch (SchemaException e) {
            throw ConversionException.failed(e.getMessage(), e);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof CorruptInputException corrupt) {
                throw new ConversionException(ConversionException.Kind.BAD_LINE, corrupt.getMessage(), e);
            }
            throw ConversionException.failed("cannot read the inputs: " + Storage.describe(e.getCause()), e);
        }
    }
}
