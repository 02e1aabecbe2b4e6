package dev.parq.job.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.apache.flink.configuration.MemorySize;

import dev.parq.schema.SchemaException;
import dev.parq.schema.SchemaInference;
import dev.parq.source.enumerator.InputFile;
import dev.parq.source.enumerator.InputFiles;
import dev.parq.source.enumerator.InputNotFoundException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code parq schema INPUT...}: prints the schema inferred from a sample of the input. */
@Command(
        name = "schema",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the schema that convert would infer, in the syntax --schema takes.",
            "The sample is spread across the whole input, not only its head."
        })
public final class SchemaCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "NDJSON files, directories or globs.")
    List<String> inputs;

    @Option(names = "--sample-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            defaultValue = "16mb", description = "Input to read, spread across the files. Default: ${DEFAULT-VALUE}.")
    MemorySize sampleSize;

    @Override
    public Integer call() {
        List<InputFile> files;
        try {
            files = InputFiles.expand(inputs);
        } catch (InputNotFoundException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            System.err.println("parq: cannot read the inputs: " + e.getMessage());
            return 1;
        }
        try {
            System.out.println(SchemaInference.infer(
                    files.stream().map(f -> Path.of(f.path())).toList(), sampleSize.getBytes()).toDdl());
            return 0;
        } catch (SchemaException e) {
            System.err.println("parq: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            System.err.println("parq: cannot read the inputs: " + e.getCause().getMessage());
            return 1;
        }
    }
}
