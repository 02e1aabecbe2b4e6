package dev.parq.job.run;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.parse.UnknownField;
import dev.parq.parse.operator.ConversionCounters;

/** Submits a job, reports its progress while it runs, and reads its counters when it has finished. */
final class JobRunner {

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
        try {
            while (true) {
                try {
                    return done.get(1, TimeUnit.SECONDS);
                } catch (TimeoutException stillRunning) {
                    if (progress != null) {
                        reportProgress(client, totalBytes, progress);
                    }
                }
            }
        } catch (ExecutionException e) {
            throw Failures.classify(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.cancel();
            throw ConversionException.failed("interrupted; the job was cancelled", e);
        }
    }

    private static void reportProgress(JobClient client, long totalBytes, ProgressListener progress) {
        try {
            Map<String, Object> accumulators = client.getAccumulators().get(1, TimeUnit.SECONDS);
            Object bytes = accumulators.get(ConversionCounters.BYTES_IN);
            if (bytes instanceof Long) {
                progress.update((Long) bytes, totalBytes);
            }
        } catch (TimeoutException | ExecutionException e) {
            // Progress is best effort; the job result decides success.
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
