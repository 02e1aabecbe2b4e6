package dev.parq.job;

import java.util.concurrent.atomic.AtomicReference;

import dev.parq.job.cli.Parq;
import dev.parq.job.run.RunAlreadyFinished;

/**
 * The application entry of parq-job.jar: {@code flink run parq-job.jar convert ...} runs it in the
 * Flink client, and Flink's application mode (a FlinkDeployment's {@code job.jarURI}) runs it inside
 * the JobManager, again after a JobManager failover. It therefore never exits the process: a command
 * that fails ends in a {@link CommandFailedException}, which Flink reports as the program's failure,
 * and whatever a command does to its output before and after its job is safe to run twice. Run
 * again after its job has finished, a conversion writes nothing and fails with
 * {@link RunAlreadyFinished}, which is passed on to Flink as it is: Flink's application runner
 * takes its cause for the job having run before, and the application completes.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        AtomicReference<RunAlreadyFinished> finishedBefore = new AtomicReference<>();
        int exitCode = Parq.commandLine(args)
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    if (!(e instanceof RunAlreadyFinished finished)) {
                        throw e;
                    }
                    finishedBefore.set(finished);
                    commandLine.getErr().println("parq: " + finished.getMessage());
                    return 0;
                })
                .execute(args);
        // Flink's application runner takes it for the job it has run before, and ends successfully.
        if (finishedBefore.get() != null) {
            throw finishedBefore.get();
        }
        if (exitCode != 0) {
            throw new CommandFailedException(exitCode, args);
        }
    }

    /** A command that ended with a non-zero exit code; its own message went to standard error. */
    public static final class CommandFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int exitCode;

        CommandFailedException(int exitCode, String[] args) {
            super("parq " + (args.length == 0 ? "" : args[0] + " ") + "ended with exit code " + exitCode
                    + (exitCode == 2 ? " (usage error)" : "") + "; its message is on standard error above");
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }
}
