package dev.parq.job;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FSDataOutputStream;

import dev.parq.batch.ArrowBatch;
import dev.parq.job.embedded.EmbeddedLogging;
import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.pipeline.ConvertSettings;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.pipeline.Pipeline;
import dev.parq.parse.operator.ParseOptions;

/**
 * A conversion whose Parquet writers sleep after every batch, run as a process of its own by
 * {@link BackpressureIT}: {@code INPUT OUTPUT DELAY_MS BATCH_ROWS PARALLELISM}. The pipeline is the
 * production one; only the writers are wrapped.
 */
public final class SlowWriterConversion {

    private SlowWriterConversion() {}

    public static void main(String[] args) throws Exception {
        EmbeddedLogging.applyDefaults();
        EmbeddedLogging.quietUnlessConfigured();
        Configuration config = new Configuration();
        config.set(ParqOptions.INPUTS, List.of(args[0]));
        config.set(ParqOptions.OUTPUT, args[1]);
        config.set(ParqOptions.SCHEMA, "id BIGINT, msg STRING");
        config.set(ParseOptions.BATCH_ROWS, Integer.parseInt(args[3]));
        config.set(CoreOptions.DEFAULT_PARALLELISM, Integer.parseInt(args[4]));
        Duration delay = Duration.ofMillis(Long.parseLong(args[2]));
        ConvertSettings.check(config);
        try (JobEnvironment environment = JobEnvironment.begin(FlinkSettings.forBoundedJob(config))) {
            ConvertSettings settings = ConvertSettings.resolve(config);
            Files.createDirectories(settings.output());
            Pipeline.convert(environment.env(), settings, writers -> new Slow(writers, delay));
            environment.env().execute("slow writer conversion");
        }
        System.exit(0);
    }

    /** Writers that sleep after each batch. */
    private static final class Slow implements BulkWriter.Factory<ArrowBatch> {
        private static final long serialVersionUID = 1L;

        private final BulkWriter.Factory<ArrowBatch> writers;
        private final Duration delay;

        Slow(BulkWriter.Factory<ArrowBatch> writers, Duration delay) {
            this.writers = writers;
            this.delay = delay;
        }

        @Override
        public BulkWriter<ArrowBatch> create(FSDataOutputStream out) throws IOException {
            BulkWriter<ArrowBatch> writer = writers.create(out);
            return new BulkWriter<>() {
                @Override
                public void addElement(ArrowBatch batch) throws IOException {
                    writer.addElement(batch);
                    try {
                        Thread.sleep(delay.toMillis());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while slowing the writer");
                    }
                }

                @Override
                public void flush() throws IOException {
                    writer.flush();
                }

                @Override
                public void finish() throws IOException {
                    writer.finish();
                }
            };
        }
    }
}
