package dev.parq.job.pipeline;

import java.nio.file.Path;
import java.util.List;

import org.apache.flink.configuration.Configuration;

import dev.parq.mmap.DType;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.schema.SchemaException;
import dev.parq.sink.tensor.TensorColumns;
import dev.parq.source.enumerate.InputFile;

/** A tensor run's settings, resolved from the configuration and checked before the job starts. */
public record TensorSettings(Reading reading, Path output, TensorColumns columns, DType<?> dtype, boolean overwrite) {

    public static final String REJECTED_SUFFIX = ".rejected";

    public static TensorSettings resolve(Configuration config) throws ConversionException {
        List<String> inputs = Reading.requiredInputs(config);
        String output = Reading.requiredOutput(config, "file");
        Storage.requireLocal(output, "tensor writes its .npy array to a local file; output");
        String columnList = config.getOptional(ParqOptions.TENSOR_COLUMNS)
                .orElseThrow(() -> ConversionException.usage("no columns given (--columns a,b,user.id)"));
        TensorColumns columns;
        try {
            columns = TensorColumns.parse(columnList);
        } catch (SchemaException e) {
            throw ConversionException.usage(e.getMessage());
        }
        DType<?> dtype = dtype(config.get(ParqOptions.TENSOR_DTYPE));
        List<InputFile> files = Reading.expand(inputs);
        return new TensorSettings(Reading.of(config, files, columns.schema(), UnknownFieldsMode.DROP),
                Path.of(output).toAbsolutePath().normalize(), columns, dtype, config.get(ParqOptions.OVERWRITE));
    }

    /** As {@link ConvertSettings#check}: the values, then the inputs. */
    public static void check(Configuration config) throws ConversionException {
        ParqOptions.validate(config);
        Reading.requiredInputs(config);
    }

    private static DType<?> dtype(String name) throws ConversionException {
        if (name.equalsIgnoreCase("float32")) {
            return DType.FLOAT32;
        }
        if (name.equalsIgnoreCase("float64")) {
            return DType.FLOAT64;
        }
        throw ConversionException.usage("unknown dtype '" + name + "': expected float32 or float64");
    }

    /** Bad lines, in the same record format as a conversion's {@code _rejected/}. */
    public Path rejectedDir() {
        return output.resolveSibling(output.getFileName() + REJECTED_SUFFIX);
    }

    /** The writers' segments and the array while it is assembled: hidden, next to the output. */
    public Path segmentsDir() {
        return output.resolveSibling("." + output.getFileName() + ".segments");
    }
}
