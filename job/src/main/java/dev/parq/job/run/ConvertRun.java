package dev.parq.job.run;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;

import dev.parq.batch.ArrowBatch;
import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConvertSettings;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.Pipeline;

/**
 * {@code convert}: NDJSON files are read, parsed into Arrow batches and written as Parquet; bad
 * lines go to {@code _rejected/}; at the end the counts are checked and the {@code _SUCCESS}
 * manifest is written.
 */
public final class ConvertRun {

    public static final String MANIFEST = "_SUCCESS";

    /** What a conversion that failed for a full disk tells its user to do. */
    private static final String REMOVED = "what the conversion wrote was removed; run it again once there is room";

    private ConvertRun() {}

    /**
     * Runs a conversion to the end and writes its manifest.
     *
     * @throws RunAlreadyFinished if the job id is fixed (application mode) and the output holds the
     *     manifest of the run of that id: the run has been made before, and its output is left as it is
     *
     * @param progress told about the bytes parsed about once a second, or null
     */
    public static Manifest run(Configuration config, ProgressListener progress) throws ConversionException {
        return run(config, progress, UnaryOperator.identity());
    }

    /**
     * As {@link #run(Configuration, ProgressListener)}, with the Parquet writers passed through
     * {@code writers} (see {@link Pipeline#convert(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment,
     * ConvertSettings, UnaryOperator)}).
     */
    public static Manifest run(Configuration config, ProgressListener progress,
            UnaryOperator<BulkWriter.Factory<ArrowBatch>> writers) throws ConversionException {
        long started = System.nanoTime();
        ConvertSettings.check(config);
        // Embedded, the cluster starts now, in the background, while the settings are resolved
        // (schema inference included).
        try (JobEnvironment environment = JobEnvironment.begin(FlinkSettings.forBoundedJob(config))) {
            ConvertSettings settings = ConvertSettings.resolve(config);
            Path output = settings.output();
            String runId = environment.fixedJobId();
            if (OutputDirectory.finishedBy(output, runId, MANIFEST)) {
                throw new RunAlreadyFinished(runId, output.toString());
            }
            boolean created = OutputDirectory.prepare(output, settings.overwrite(), runId);
            Pipeline.convert(environment.env(), settings, writers);
            JobExecutionResult result;
            try (UnfinishedOutput unfinished = UnfinishedOutput.watch(output, created, "the conversion",
                    environment.embedded())) {
                result = unfinished.execute(environment.env(), "parq convert to " + output,
                        settings.reading().totalBytes(), progress);
            } catch (ConversionException e) {
                throw FullDisk.named(e, Map.of("Parquet files", output), REMOVED);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            Manifest manifest = Manifest.collect(settings, JobRunner.counters(result), elapsedMs);
            manifest.checkCounts();
            try {
                manifest.write(new Path(output, MANIFEST));
            } catch (ConversionException e) {
                if (e.kind() == ConversionException.Kind.NO_SPACE) {
                    // Part files without a manifest are no finished output, and the disk has no room
                    // for one: they go, as the files of a run that failed before its commit do.
                    removeWritten(output, created, e);
                    throw FullDisk.named(e, Map.of(), REMOVED);
                }
                throw e;
            }
            return manifest;
        }
    }

    /** Removes what the conversion wrote to {@code output}, which it found absent if {@code created}, else empty. */
    private static void removeWritten(Path output, boolean created, ConversionException failure) {
        try {
            UnfinishedOutput.removeFrom(new UnfinishedOutput.Directory(output, created));
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
