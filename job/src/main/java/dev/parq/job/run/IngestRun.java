package dev.parq.job.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.IngestSettings;
import dev.parq.job.pipeline.Pipeline;

/**
 * {@code ingest}: follows the inputs and writes their lines to Parquet until stopped, committing on
 * each checkpoint. It resumes from the newest savepoint or retained checkpoint in its state
 * directory. Embedded, SIGTERM or SIGINT stop it with a savepoint, once what it has read is
 * committed. A snapshot named by the user ({@code flink run -s}) is resumed from instead.
 */
public final class IngestRun {

    private IngestRun() {}

    /**
     * How an ingest run ended: where it resumed from (or null), the savepoint it stopped with, and
     * whether it ended at the job's submission, leaving the job running ({@code flink run -d}).
     */
    public record Result(Path output, Path resumedFrom, String savepoint, boolean detached) {}

    /**
     * Runs until stopped, or detached ({@code flink run -d}) until its job is submitted.
     *
     * @param started told, once the job is submitted, which snapshot it resumed from (null if none)
     */
    public static Result run(Configuration config, Consumer<Path> started) throws ConversionException {
        IngestSettings.check(config);
        IngestSettings settings = IngestSettings.resolve(config);
        Path restore;
        try {
            Files.createDirectories(settings.output());
            Files.createDirectories(settings.stateDir());
            Path requested = FlinkSettings.requestedRestore(config);
            restore = requested != null ? requested : RestorePoints.newest(settings.stateDir());
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare " + settings.output() + ": " + e, e);
        }
        Configuration flink = FlinkSettings.forUnboundedJob(config, settings.checkpointInterval(), settings.stateDir(),
                restore);
        try (JobEnvironment environment = JobEnvironment.begin(flink)) {
            Pipeline.ingest(environment.env(), settings);
            JobClient client;
            try {
                client = environment.env().executeAsync("parq ingest to " + settings.output());
            } catch (Exception e) {
                throw Failures.classify("could not start the ingest", e);
            }
            StopRequest stop = environment.embedded() ? StopRequest.onSignals() : StopRequest.never();
            started.accept(restore);
            if (environment.detached()) {
                return new Result(settings.output(), restore, null, true);
            }
            String savepoint = await(client, stop, settings.stateDir().resolve(FlinkSettings.SAVEPOINTS));
            return new Result(settings.output(), restore, savepoint, false);
        }
    }

    /** Waits for the job to end; once a stop is asked for, stops it with a savepoint. */
    private static String await(JobClient client, StopRequest stop, Path savepoints) throws ConversionException {
        CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
        CompletableFuture<String> savepoint = null;
        try {
            while (true) {
                try {
                    done.get(200, TimeUnit.MILLISECONDS);
                    return savepoint == null ? null : savepoint.get();
                } catch (TimeoutException running) {
                    if (savepoint == null && stop.requested()) {
                        savepoint = client.stopWithSavepoint(false, savepoints.toUri().toString(),
                                SavepointFormatType.CANONICAL);
                    }
                }
            }
        } catch (ExecutionException e) {
            throw Failures.classify(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.cancel();
            throw ConversionException.failed("interrupted; the ingest was cancelled", e);
        }
    }

    /** Whether the process was asked to stop. */
    private interface StopRequest {
        boolean requested();

        static StopRequest never() {
            return () -> false;
        }

        /**
         * SIGTERM and SIGINT ask for a stop instead of ending the process: Flink's own shutdown hooks
         * would tear the embedded cluster down while the savepoint is taken.
         */
        @SuppressWarnings("restriction")
        static StopRequest onSignals() {
            AtomicBoolean requested = new AtomicBoolean();
            for (String name : new String[] {"TERM", "INT"}) {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    if (!requested.compareAndSet(false, true)) {
                        // Asked twice: no savepoint; the next start resumes from the last checkpoint.
                        Runtime.getRuntime().halt(128 + signal.getNumber());
                    }
                });
            }
            return requested::get;
        }
    }
}
