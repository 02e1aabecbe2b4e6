package dev.parq.job.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code parq} command line: {@code convert}, {@code ingest}, {@code tensor}, {@code schema} and
 * {@code array}.
 * It runs a command and returns its exit code; which process it runs in, and what happens to that
 * code, is up to the entry point ({@code dev.parq.job.Main} or {@code dev.parq.job.Launcher}).
 *
 * <p>Exit codes: 0 on success, 1 when the work failed, 2 on a usage error.
 */
@Command(
        name = "parq",
        mixinStandardHelpOptions = true,
        versionProvider = Parq.Version.class,
        description = "Converts newline-delimited JSON to Parquet on Apache Flink.",
        subcommands = {ConvertCommand.class, IngestCommand.class, TensorCommand.class, SchemaCommand.class,
            ArrayCommand.class, CommandLine.HelpCommand.class})
public final class Parq implements Runnable {

    /** Runs a command line and returns its exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command line model, for an entry point that wants to choose how it executes. */
    public static CommandLine commandLine() {
        // "@FILE" is parq's own syntax for --schema, not picocli's argument files.
        return new CommandLine(new Parq()).setExpandAtFiles(false);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /** The version recorded in the jar's manifest by the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Parq.class.getPackage().getImplementationVersion();
            return new String[] {"parq " + (version == null ? "(development build)" : version)};
        }
    }
}
