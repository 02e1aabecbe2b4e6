package dev.parq.job;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;

import dev.parq.io.StandardInput;
import dev.parq.job.cli.ArrayCommand;
import dev.parq.job.cli.Parq;
import dev.parq.job.embedded.EmbeddedLogging;
import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.pipeline.FlinkSettings;
import picocli.CommandLine;

/**
 * The entry point of {@code java -jar parq.jar} (and so of {@code ./parq}): the job runs on a Flink
 * cluster embedded in this process, which exits with the command's exit code. Everywhere else
 * (under {@code flink run}, or inside a JobManager in application mode) the entry point is
 * {@link Main}, which never exits the process.
 */
public final class Launcher {

    private Launcher() {}

    public static void main(String[] args) {
        int arrayStats = ArrayCommand.statsWithoutParser(
                args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (arrayStats >= 0) {
            System.exit(arrayStats);
        }
        EmbeddedLogging.applyDefaults();
        StandardInput.enable();
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
                EmbeddedLogging.quietUnlessConfigured();
            } finally {
                loggingSet.countDown();
            }
            if (parallelism >= 0) {
                try {
                    JobEnvironment.prestart(FlinkSettings.forEarlyCluster(parallelism));
                } catch (RuntimeException e) {
                    // The job starts its own cluster then, and reports what is wrong.
                } finally {
                    JobEnvironment.noPrestart();
                }
            }
        }, "parq-setup");
        setup.setDaemon(true);
        setup.start();
        CommandLine commandLine = Parq.commandLine(args);
        commandLine.setExecutionStrategy(parsed -> {
            awaitQuietly(loggingSet);
            return new CommandLine.RunLast().execute(parsed);
        });
        System.exit(commandLine.execute(args));
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
}
