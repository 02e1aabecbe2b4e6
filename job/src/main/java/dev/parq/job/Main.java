package dev.parq.job;

import java.util.concurrent.CountDownLatch;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

import dev.parq.job.cli.ArrayCommand;
import dev.parq.job.cli.ConvertCommand;
import dev.parq.job.cli.SchemaCommand;
import dev.parq.job.cli.TensorCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code parq} command: {@code convert}, {@code tensor}, {@code schema} and {@code array}. The
 * same class is the entry point of {@code java -jar parq.jar} (an embedded local Flink cluster) and of
 * {@code flink run parq-job.jar} (the cluster the Flink client points at).
 *
 * <p>Exit codes: 0 on success, 1 when the work failed, 2 on a usage error.
 */
@Command(
        name = "parq",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Converts newline-delimited JSON to Parquet on Apache Flink.",
        subcommands = {ConvertCommand.class, TensorCommand.class, SchemaCommand.class, ArrayCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    private static final String LOGGER_CONTEXT_FACTORY = "log4j2.loggerContextFactory";
    private static final String SIMPLE_LOGGER_CONTEXT_FACTORY =
            "org.apache.logging.log4j.simple.SimpleLoggerContextFactory";

    public static void main(String[] args) {
        embeddedDefaults();
        // Setting up log4j-core (when a log is asked for) takes a quarter of a second, as long as
        // building the command line model, and the embedded cluster takes longer still to start:
        // they happen on another thread while the command line is read, logging first, so that
        // nothing logs before the level is set. The command runs once logging is set.
        int parallelism = embeddedJobParallelism(args);
        CountDownLatch loggingSet = new CountDownLatch(1);
        if (parallelism >= 0) {
            JobEnvironment.expectPrestart();
        }
        Thread setup = new Thread(() -> {
            try {
                quietLoggingUnlessConfigured();
            } finally {
                loggingSet.countDown();
            }
            if (parallelism >= 0) {
                try {
                    ConvertJob.prestart(parallelism);
                } catch (RuntimeException e) {
                    // The job starts its own cluster then, and reports what is wrong.
                } finally {
                    JobEnvironment.noPrestart();
                }
            }
        }, "parq-setup");
        setup.setDaemon(true);
        setup.start();
        System.exit(execute(loggingSet, args));
    }

    /**
     * For a command line that runs a job, the parallelism it asks for (0: the configuration's),
     * so that the job's cluster can start while the rest of the command line is read; -1 for any
     * other command line. A wrong guess costs only that cluster's start: the job checks that it
     * got the cluster it needs.
     */
    static int embeddedJobParallelism(String... args) {
        if (args.length == 0 || !(args[0].equals("convert") || args[0].equals("tensor"))) {
            return -1;
        }
        int parallelism = 0;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            if (arg.equals("-h") || arg.equals("--help") || arg.equals("-V") || arg.equals("--version")) {
                return -1;
            } else if (arg.equals("-p") || arg.equals("--parallelism")) {
                value = i + 1 < args.length ? args[++i] : "";
            } else if (arg.startsWith("--parallelism=")) {
                value = arg.substring("--parallelism=".length());
            } else if (arg.startsWith("-p") && !arg.startsWith("--")) {
                value = arg.substring(arg.startsWith("-p=") ? 3 : 2);
            }
            if (value != null) {
                try {
                    parallelism = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    return -1;
                }
                if (parallelism < 1) {
                    return -1;
                }
            }
        }
        return parallelism;
    }

    /** Runs a command line and returns its exit code. */
    public static int execute(String... args) {
        return execute(null, args);
    }

    private static int execute(CountDownLatch loggingSet, String... args) {
        // "@FILE" is parq's own syntax for --schema, not picocli's argument files.
        CommandLine commandLine = new CommandLine(new Main()).setExpandAtFiles(false);
        if (loggingSet != null) {
            commandLine.setExecutionStrategy(parsed -> {
                awaitQuietly(loggingSet);
                return new CommandLine.RunLast().execute(parsed);
            });
        }
        return commandLine.execute(args);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /**
     * System properties for a run in this JVM (java -jar: the embedded cluster's tasks run here too),
     * each unless set on the command line. Arrow checks every buffer access against the buffer's
     * bounds unless told otherwise; parq's own tests run with the checks on, and in a conversion they
     * are 3-4% of the parser's time. Log4j registers its JMX beans at start-up, which nothing reads.
     */
    private static void embeddedDefaults() {
        System.setProperty("arrow.enable_unsafe_memory_access",
                System.getProperty("arrow.enable_unsafe_memory_access", "true"));
        System.setProperty("log4j2.disableJmx", System.getProperty("log4j2.disableJmx", "true"));
        if (loggingOff()) {
            // Nothing is logged, so log4j-core need not start at all (its configuration search and
            // plugin scan took 0.2 s of CPU at start-up): log4j-api's own simple logger, switched
            // off, takes every log call instead.
            System.setProperty(LOGGER_CONTEXT_FACTORY, SIMPLE_LOGGER_CONTEXT_FACTORY);
            System.setProperty("org.apache.logging.log4j.simplelog.level", "OFF");
        }
    }

    /** Whether nothing is to be logged: no log4j configuration given, and PARQ_LOG_LEVEL unset or OFF. */
    private static boolean loggingOff() {
        return !log4jConfigured()
                && System.getProperty(LOGGER_CONTEXT_FACTORY) == null
                && parqLogLevel() == Level.OFF;
    }

    /** Whether a log4j configuration file was given, as a Flink client or cluster does. */
    private static boolean log4jConfigured() {
        return System.getProperty("log4j.configurationFile") != null
                || System.getProperty("log4j2.configurationFile") != null;
    }

    /** The level PARQ_LOG_LEVEL asks for; OFF when it is unset or names no level. */
    private static Level parqLogLevel() {
        return Level.toLevel(System.getenv().getOrDefault("PARQ_LOG_LEVEL", "OFF"), Level.OFF);
    }

    /**
     * A Flink client or cluster configures logging itself; run as a plain command, Flink's own
     * log lines would drown parq's output, so they are shown only when PARQ_LOG_LEVEL asks.
     */
    private static void quietLoggingUnlessConfigured() {
        if (log4jConfigured() || SIMPLE_LOGGER_CONTEXT_FACTORY.equals(System.getProperty(LOGGER_CONTEXT_FACTORY))) {
            return;
        }
        try {
            Configurator.setRootLevel(parqLogLevel());
        } catch (NoClassDefFoundError noLog4j) {
            // Without log4j-core on the class path, logging is whatever the host set up.
        }
    }

    /** The version recorded in the jar's manifest by the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"parq " + (version == null ? "(development build)" : version)};
        }
    }
}
