package dev.parq.job.run;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.embedded.MetricsTap;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.Storage;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.IngestSettings;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.pipeline.Pipeline;

/**
 * {@code ingest}: follows the inputs and writes their lines to Parquet until stopped, committing on
 * each checkpoint. It resumes from the newest savepoint or retained checkpoint in its state
 * directory. Embedded, SIGTERM or SIGINT stop it with a savepoint, once what it has read is
 * compacted and committed ({@link SavepointStop}). A snapshot named by the user
 * ({@code flink run -s}) is resumed from instead.
 */
public final class IngestRun {

    private IngestRun() {}

    /**
     * How an ingest run ended: where it resumed from (or null), the savepoint it stopped with, and
     * whether it ended at the job's submission, leaving the job running ({@code flink run -d}).
     */
    public record Result(Path output, String resumedFrom, String savepoint, boolean detached) {}

    /** Told how an ingest run goes. */
    public interface Listener {
        /** Once the job is submitted: the snapshot it resumed from (or null), and how to stop it. */
        void started(String resumedFrom, String howToStop);

        /** Snapshots passed over as unreadable, a resume forced past the commit record. */
        void warning(String message);

        /** About once a second while it runs embedded. */
        void status(IngestStatus status);
    }

    /** Runs until stopped, or detached ({@code flink run -d}) until its job is submitted. */
    public static Result run(Configuration config, Listener listener) throws ConversionException {
        Consumer<String> warnings = listener::warning;
        IngestSettings.check(config);
        IngestSettings settings = IngestSettings.resolve(config);
        if (Storage.isLocal(settings.output())) {
            java.nio.file.Path output = java.nio.file.Path.of(settings.output().toUri().getPath());
            java.nio.file.Path parent = output.getParent();
            if (!Files.isDirectory(output) && parent != null && !Files.isDirectory(parent)) {
                throw ConversionException.usage("the output's parent directory " + parent + " does not exist");
            }
        }
        RestorePoints.Snapshot restore;
        try {
            FileSystem outputFs = Storage.fileSystem(settings.output(), "output");
            FileSystem stateFs = Storage.fileSystem(settings.stateDir(), "--state");
            // Chosen before anything is written: a refused start leaves the output and the state as they were.
            restore = ResumeGuard.choose(settings.output(), settings.stateDir(), FlinkSettings.requestedRestore(config),
                    config.get(ParqOptions.FORCE), warnings);
            outputFs.mkdirs(settings.output());
            stateFs.mkdirs(settings.stateDir());
            StateOwner.claim(settings.output(), settings.stateDir());
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare " + settings.output() + ": " + Storage.describe(e), e);
        }
        Configuration flink = FlinkSettings.forUnboundedJob(config, settings.checkpointInterval(), settings.stateDir(),
                restore == null ? null : restore.location());
        // Embedded, the status line reads the job's metrics through a reporter in this process.
        MetricsTap.tap(StatusProbe.METRICS);
        flink.setString("metrics.reporter." + MetricsTap.NAME + ".factory.class", MetricsTap.Factory.class.getName());
        try (JobEnvironment environment = JobEnvironment.begin(flink)) {
            Pipeline.ingest(environment.env(), settings, environment.checkpointRequest());
            JobClient client;
            try {
                client = environment.env().executeAsync("parq ingest to " + settings.output());
            } catch (Exception e) {
                throw Failures.classify("could not start the ingest", e);
            }
            StopRequest stop = environment.embedded() ? StopRequest.onSignals() : StopRequest.never();
            String resumedFrom = restore == null ? null : restore.location();
            Path savepoints = new Path(settings.stateDir(), FlinkSettings.SAVEPOINTS);
            listener.started(resumedFrom, environment.embedded() ? "stop with Ctrl-C (a savepoint is taken)"
                    : "stop with: flink savepoint " + client.getJobID() + " " + savepoints
                            + " && flink stop --savepointPath " + savepoints + " " + client.getJobID());
            if (environment.detached()) {
                return new Result(settings.output(), resumedFrom, null, true);
            }
            StatusProbe probe = environment.embedded() ? new StatusProbe() : null;
            Duration stopTimeout = config.get(ParqOptions.STOP_TIMEOUT);
            Runnable everySecond = () -> {
                if (probe != null) {
                    listener.status(probe.now());
                }
            };
            String savepoint;
            try {
                savepoint = await(client, stop,
                        () -> SavepointStop.begin(client, savepoints, stopTimeout, warnings), everySecond);
            } catch (ConversionException e) {
                Map<String, Path> places = new LinkedHashMap<>();
                places.put("checkpoints", settings.stateDir());
                places.put("Parquet files", settings.output());
                throw FullDisk.named(e, places, "the ingest stopped, and what it committed stays;"
                        + " once there is room, the same command resumes from its last checkpoint");
            }
            return new Result(settings.output(), resumedFrom, savepoint, false);
        }
    }

    /** Waits for the job to end; once a stop is asked for, stops it with a savepoint. */
    private static String await(JobClient client, StopRequest stop, Supplier<SavepointStop> stopping,
            Runnable everySecond) throws ConversionException {
        CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
        SavepointStop stopped = null;
        long nextStatus = System.nanoTime();
        try {
            while (true) {
                try {
                    done.get(200, TimeUnit.MILLISECONDS);
                    return stopped == null ? null : stopped.savepoint();
                } catch (TimeoutException running) {
                    if (stopped == null && System.nanoTime() - nextStatus >= 0) {
                        everySecond.run();
                        nextStatus = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                    }
                    if (stopped == null && stop.requested()) {
                        stopped = stopping.get();
                    }
                    if (stopped != null) {
                        stopped.advance();
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
