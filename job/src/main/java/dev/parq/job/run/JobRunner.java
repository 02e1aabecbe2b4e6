package dev.parq.job.run;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.parse.UnknownField;
import dev.parq.parse.operator.ConversionCounters;

/** Submits a job, reports its progress while it runs, and reads its counters when it has finished. */
final class JobRunner {

    /** How often a running job's status is asked for, so that its end is seen within this. */
    private static final long STATUS_POLL_MILLIS = 50;
    private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private JobRunner() {}

    /**
     * Runs the job to its end, telling {@code started} its client once it is submitted and
     * {@code progress} (if not null) about the bytes parsed of {@code totalBytes} about once a second.
     */
    static JobExecutionResult execute(StreamExecutionEnvironment env, String jobName, long totalBytes,
            ProgressListener progress, Consumer<JobClient> started) throws ConversionException {
        JobClient client;
        try {
            client = env.executeAsync(jobName);
        } catch (Exception e) {
            throw Failures.classify("could not start " + jobName, e);
        }
        started.accept(client);
        CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
        // The embedded cluster's client completes the result as the job ends and shuts the cluster
        // down right after; only a remote cluster's client polls for it.
        boolean askedAgain = client instanceof MiniClusterJobClient;
        long nextProgress = System.nanoTime() + PROGRESS_INTERVAL_NANOS;
        try {
            while (true) {
                try {
                    return done.get(STATUS_POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillRunning) {
                    if (progress != null && System.nanoTime() - nextProgress >= 0) {
                        reportProgress(client, totalBytes, progress);
                        nextProgress = System.nanoTime() + PROGRESS_INTERVAL_NANOS;
                    }
                    // A cluster's client asks for the result at intervals that double up to 2 s, so
                    // a job of a few seconds would wait up to 2 s more for its result; asking for its
                    // status is cheap, and a new request for the result of an ended job answers at once.
                    if (!askedAgain && ended(client)) {
                        askedAgain = true;
                        done = client.getJobExecutionResult();
                    }
                }
            }
        } catch (ExecutionException e) {
            throw Failures.classify(null, e, jobName);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.cancel();
            throw ConversionException.failed("interrupted; the job was cancelled", e);
        }
    }

    private static boolean ended(JobClient client) throws InterruptedException {
        try {
            return client.getJobStatus().get(1, TimeUnit.SECONDS).isGloballyTerminalState();
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
            return false;   // the result, when it comes, decides
        }
    }

    private static void reportProgress(JobClient client, long totalBytes, ProgressListener progress) {
        try {
            Map<String, Object> accumulators = client.getAccumulators().get(1, TimeUnit.SECONDS);
            Object bytes = accumulators.get(ConversionCounters.BYTES_IN);
            if (bytes instanceof Long) {
                progress.update((Long) bytes, totalBytes);
            }
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
            // An embedded cluster that has just shut down after the job's end answers with an
            // IllegalStateException. Progress is best effort; the job result decides success.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The counts the parsers kept, merged across all of them. */
    static Counters counters(JobExecutionResult result) {
        Map<String, UnknownField> unknown = result.getAccumulatorResult(ConversionCounters.UNKNOWN_FIELDS);
        return new Counters(
                longOrZero(result.getAccumulatorResult(ConversionCounters.BYTES_IN)),
                longOrZero(result.getAccumulatorResult(ConversionCounters.RECORDS_IN)),
                longOrZero(result.getAccumulatorResult(ConversionCounters.REJECTED)),
                unknown == null ? Map.of() : unknown);
    }

    private static long longOrZero(Object value) {
        return value == null ? 0 : (Long) value;
    }

    /** The counts the parsers kept, merged across all of them. */
    record Counters(long bytesIn, long recordsIn, long rejected, Map<String, UnknownField> unknownFields) {}
}
