package dev.parq.job.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;

/** {@code --schema} takes a column list, or {@code @FILE} to read the list from a file. */
final class SchemaArgument {

    private SchemaArgument() {}

    static String read(String value, CommandLine commandLine) {
        if (value == null || !value.startsWith("@")) {
            return value;
        }
        Path file = Path.of(value.substring(1));
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new CommandLine.ParameterException(
                    commandLine, "cannot read the schema file " + file + ": " + e.getMessage());
        }
    }
}
