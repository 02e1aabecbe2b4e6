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
        return commandLine(args).execute(args);
    }

    /** The whole command line model, every command in it. */
    public static CommandLine commandLine() {
        // "@FILE" is parq's own syntax for --schema, not picocli's argument files.
        return new CommandLine(new Parq()).setExpandAtFiles(false);
    }

    /**
     * The command line model that {@code args} need, for an entry point that wants to choose how
     * it executes. For {@code array ...} that is the {@code array} commands alone under a bare
     * {@code parq}: the model of every command, with the Flink option types of the job commands,
     * takes about 0.3 s to build, as long as {@code array stats} takes to scan a GiB.
     */
    public static CommandLine commandLine(String... args) {
        if (args.length == 0 || !args[0].equals("array")) {
            return commandLine();
        }
        CommandLine parq = new CommandLine(CommandLine.Model.CommandSpec.create().name("parq"));
        return parq.addSubcommand(new CommandLine(new ArrayCommand())).setExpandAtFiles(false);
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
