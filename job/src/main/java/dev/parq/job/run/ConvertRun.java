package dev.parq.job.run;

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
                throw FullDisk.named(e, Map.of("Parquet files", output),
                        "what the conversion wrote was removed; run it again once there is room");
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            Manifest manifest = Manifest.collect(settings, JobRunner.counters(result), elapsedMs);
            manifest.checkCounts();
            manifest.write(new Path(output, MANIFEST));
            return manifest;
        }
    }
}
