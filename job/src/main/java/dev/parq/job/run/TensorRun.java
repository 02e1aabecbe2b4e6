package dev.parq.job.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.Pipeline;
import dev.parq.job.pipeline.Storage;
import dev.parq.job.pipeline.TensorSettings;
import dev.parq.mmap.DType;
import dev.parq.mmap.MmapArrayException;
import dev.parq.mmap.MmapArrayWriter;
import dev.parq.parse.operator.OnError;
import dev.parq.sink.tensor.Segment;

/**
 * NDJSON to a 2-D mmap array {@code [rows, columns]}: the same source and parser as
 * {@link ConvertRun}, with the chosen numeric fields as DOUBLE columns; the tensor sink writes
 * row segments named by input range into a hidden directory next to the output, and the client
 * concatenates them in input order behind the array header. Bad lines go to
 * {@code OUT.rejected/} or fail the run, as in a conversion.
 */
public final class TensorRun {

    private TensorRun() {}

    /**
     * Runs the job, assembles the array file and checks that every record read is either a row
     * of the array or a rejected line.
     *
     * @param progress told about the bytes parsed about once a second, or null
     */
    public static Result run(Configuration config, ProgressListener progress) throws ConversionException {
        long started = System.nanoTime();
        TensorSettings.check(config);
        try (JobEnvironment environment = JobEnvironment.begin(FlinkSettings.forBoundedJob(config))) {
            return run(config, environment, progress, started);
        }
    }

    private static Result run(Configuration config, JobEnvironment environment, ProgressListener progress,
            long started) throws ConversionException {
        TensorSettings settings = TensorSettings.resolve(config);
        boolean noRejectedBefore = prepareOutput(settings, environment.fixedJobId());
        StreamExecutionEnvironment env = environment.env();
        Exception failure = null;
        // A failure or a stop of the process while the job runs removes the segments and the
        // unfinished files of rejected lines (the segments also go at the end, below).
        try (UnfinishedOutput unfinished = UnfinishedOutput.watch(
                List.of(new UnfinishedOutput.Directory(Storage.of(settings.segmentsDir()), true),
                        new UnfinishedOutput.Directory(Storage.of(settings.rejectedDir()), noRejectedBefore)),
                "the tensor conversion", environment.embedded())) {
            Pipeline.tensor(env, settings);
            JobExecutionResult result = unfinished.execute(env, "parq tensor to " + settings.output(),
                    settings.reading().totalBytes(), progress);
            JobRunner.Counters counters = JobRunner.counters(result);
            long rows = assemble(settings);
            long rejected = countRejected(settings);
            if (rows + rejected != counters.recordsIn() || rejected != counters.rejected()) {
                throw ConversionException.failed(String.format(
                        "counts do not add up: %d records read, %d rows in the array, %d rejected lines on disk"
                                + " (%d counted by the parsers); %s is incomplete",
                        counters.recordsIn(), rows, rejected, counters.rejected(), settings.output()), null);
            }
            Path array = settings.segmentsDir().resolve(settings.output().getFileName());
            move(array, settings.output());
            return new Result(settings.output(), rows, settings.columns().names(), settings.dtype(),
                    counters.recordsIn(), rejected,
                    settings.reading().onError() == OnError.REJECT ? settings.rejectedDir() : null,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } catch (ConversionException | RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            removeSegments(settings.segmentsDir(), failure);
        }
    }

    /** Removes the temporary directory; failing to is the run's failure unless it already failed. */
    private static void removeSegments(Path directory, Exception failure) throws ConversionException {
        try {
            deleteSegments(directory);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                throw ConversionException.failed("cannot remove the temporary directory " + directory + ": " + e, e);
            }
        }
    }

    /** Concatenates the segments in input order into an array file inside the segments directory. */
    private static long assemble(TensorSettings settings) throws ConversionException {
        Path array = settings.segmentsDir().resolve(settings.output().getFileName());
        try (MmapArrayWriter writer = MmapArrayWriter.create(array, settings.dtype(), settings.columns().count())) {
            for (Segment segment : Segment.listInOrder(settings.segmentsDir())) {
                writer.appendFile(segment.path());
            }
            long rows = writer.rows();
            writer.close();
            return rows;
        } catch (MmapArrayException | IOException e) {
            throw ConversionException.failed("cannot assemble " + settings.output() + ": " + e.getMessage(), e);
        }
    }

    private static long countRejected(TensorSettings settings) throws ConversionException {
        try {
            return Manifest.countLines(Storage.of(settings.rejectedDir()));
        } catch (IOException e) {
            throw ConversionException.failed("cannot count the rejected lines in " + settings.rejectedDir() + ": " + e, e);
        }
    }

    private static void move(Path from, Path to) throws ConversionException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw ConversionException.failed("cannot move the array to " + to + ": " + e, e);
        }
    }

    /**
     * Clears the way for the run's output; returns whether there was no directory of rejected lines.
     * With a {@code runId}, the segments directory is marked as that run's, and one marked by the
     * same run (its {@code main()} run again) is left as it is.
     */
    private static boolean prepareOutput(TensorSettings settings, String runId) throws ConversionException {
        Path output = settings.output();
        Path rejected = settings.rejectedDir();
        try {
            if (OutputDirectory.markedBy(Storage.of(settings.segmentsDir()), runId)) {
                return false;
            }
            if (Files.isDirectory(output)) {
                throw ConversionException.usage("output " + output + " is a directory; tensor writes one array file");
            }
            boolean rejectedNotEmpty = false;
            if (Files.isDirectory(rejected)) {
                try (Stream<Path> entries = Files.list(rejected)) {
                    rejectedNotEmpty = entries.findAny().isPresent();
                }
            }
            if ((Files.exists(output) || rejectedNotEmpty) && !settings.overwrite()) {
                throw ConversionException.usage((Files.exists(output) ? "output " + output : rejected)
                        + " exists; pass --overwrite to replace it");
            }
            boolean noRejected = !Files.isDirectory(rejected);
            if (!noRejected) {
                OutputDirectory.deleteContents(Storage.of(rejected));
            }
            deleteSegments(settings.segmentsDir());
            Files.createDirectories(settings.segmentsDir());
            OutputDirectory.mark(Storage.of(settings.segmentsDir()), runId);
            return noRejected;
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare output " + output + ": " + e, e);
        }
    }

    private static void deleteSegments(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            OutputDirectory.deleteContents(Storage.of(directory));
            Files.delete(directory);
        }
    }

    /** What a tensor run produced. */
    public record Result(Path output, long rows, List<String> columns, DType<?> dtype, long recordsIn,
            long rejected, Path rejectedDir, long elapsedMs) {}
}
