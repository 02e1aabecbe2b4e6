package dev.parq.job;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FSDataOutputStream;

import dev.parq.batch.ArrowBatch;
import dev.parq.job.embedded.EmbeddedLogging;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.ConvertRun;
import dev.parq.job.run.Manifest;
import dev.parq.parse.operator.ParseOptions;

/**
 * A conversion whose Parquet writers sleep after every batch, run as a process of its own by
 * {@link BackpressureIT} and {@link LauncherIT}: {@code INPUT OUTPUT DELAY_MS BATCH_ROWS PARALLELISM
 * [SCHEMA]}. The run is the production one, embedded cluster, manifest and cleanup of unfinished
 * output on a stop included; only the writers are wrapped.
 */
public final class SlowWriterConversion {

    private SlowWriterConversion() {}

    /**
     * The command line that runs this class on the embedded jar, with a 256 MiB heap; {@code schema}
     * null to infer one.
     */
    static List<String> command(Path input, Path output, int delayMs, int batchRows, int parallelism, String schema) {
        List<String> command = ParqJar.java("-Xmx256m", "-XX:+UseParallelGC");
        // parq.jar's manifest opens these packages to Arrow when it is run with -jar; here it is not.
        for (String open : List.of("java.base/java.nio", "java.base/java.lang", "java.base/java.util",
                "java.base/sun.nio.ch")) {
            command.add("--add-opens=" + open + "=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", Path.of("target", "parq.jar").toAbsolutePath() + File.pathSeparator
                        + Path.of("target", "test-classes").toAbsolutePath(),
                SlowWriterConversion.class.getName(), input.toString(), output.toString(), Integer.toString(delayMs),
                Integer.toString(batchRows), Integer.toString(parallelism)));
        if (schema != null) {
            command.add(schema);
        }
        return command;
    }

    public static void main(String[] args) throws Exception {
        EmbeddedLogging.applyDefaults();
        EmbeddedLogging.quietUnlessConfigured();
        Configuration config = new Configuration();
        config.set(ParqOptions.INPUTS, List.of(args[0]));
        config.set(ParqOptions.OUTPUT, args[1]);
        config.set(ParseOptions.BATCH_ROWS, Integer.parseInt(args[3]));
        config.set(CoreOptions.DEFAULT_PARALLELISM, Integer.parseInt(args[4]));
        if (args.length > 5) {
            config.set(ParqOptions.SCHEMA, args[5]);
        }
        Duration delay = Duration.ofMillis(Long.parseLong(args[2]));
        try {
            Manifest manifest = ConvertRun.run(config, null, writers -> new Slow(writers, delay));
            System.out.println("rows " + manifest.rowsWritten());
        } catch (ConversionException e) {
            System.err.println("parq: " + e.getMessage());
            System.exit(e.exitCode());
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
