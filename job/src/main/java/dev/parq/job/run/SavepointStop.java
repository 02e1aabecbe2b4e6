package dev.parq.job.run;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TimeUtils;

import dev.parq.job.pipeline.FlinkSettings;

/**
 * A stop with a savepoint that leaves every row read visible. Operators learn that a savepoint is a
 * stop only after its barrier has passed them, too late to compact into it; so a plain savepoint
 * announces the stop first, and the compaction compacts everything at the barriers after one,
 * the stop's among them ({@code dev.parq.sink.compact.SavepointCompaction}); the stop then waits, as
 * every stop does, for its files' commit. The announcing savepoint is deleted once the stop's is
 * taken. If it takes longer than the timeout (a checkpoint held up), the stop goes on without it:
 * the rows not compacted yet are then in the stop's savepoint, hidden until the next start.
 */
final class SavepointStop {

    private final JobClient client;
    private final String savepoints;
    private final Duration timeout;
    private final long deadline;
    private final Consumer<String> warnings;
    private final CompletableFuture<String> announcement;
    private CompletableFuture<String> stop;

    private SavepointStop(JobClient client, Path savepoints, Duration timeout, Consumer<String> warnings) {
        this.client = client;
        this.savepoints = FlinkSettings.uri(savepoints);
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
        this.warnings = warnings;
        this.announcement = client.triggerSavepoint(this.savepoints, SavepointFormatType.CANONICAL);
    }

    /** Announces a stop of {@code client}'s job, to savepoints in {@code savepoints}. */
    static SavepointStop begin(JobClient client, Path savepoints, Duration timeout, Consumer<String> warnings) {
        return new SavepointStop(client, savepoints, timeout, warnings);
    }

    /** Called while the job runs: stops it once the announcement is taken, failed, or timed out. */
    void advance() {
        if (stop != null) {
            return;
        }
        if (announcement.isCompletedExceptionally()) {
            warnings.accept("the savepoint before the stop failed; rows not compacted yet become visible at the"
                    + " next start: " + announcement.handle((path, e) -> String.valueOf(e)).join());
        } else if (!announcement.isDone()) {
            if (System.nanoTime() - deadline < 0) {
                return;
            }
            warnings.accept("the savepoint before the stop took longer than the stop timeout ("
                    + TimeUtils.formatWithHighestUnit(timeout)
                    + "); rows not compacted yet become visible at the next start");
        }
        stop = client.stopWithSavepoint(false, savepoints, SavepointFormatType.CANONICAL);
    }

    /** Once the job has ended: the stop's savepoint; the announcing one, now behind it, is deleted. */
    String savepoint() throws ExecutionException, InterruptedException {
        String taken = stop.get();
        if (announcement.isDone() && !announcement.isCompletedExceptionally()) {
            String announced = announcement.get();
            try {
                Path path = new Path(URI.create(announced));
                path.getFileSystem().delete(path, true);
            } catch (IOException | IllegalArgumentException e) {
                warnings.accept("cannot delete the savepoint " + announced + " taken before the stop's: " + e);
            }
        }
        return taken;
    }
}
