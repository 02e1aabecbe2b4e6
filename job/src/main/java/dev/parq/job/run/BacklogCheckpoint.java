package dev.parq.job.run;

import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.common.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.job.embedded.JobEnvironment;
import dev.parq.job.embedded.MetricsTap;
import dev.parq.source.FollowingMetrics;

/**
 * Embedded, asks for a checkpoint as soon as the source has read a backlog: the compaction
 * compacts and commits everything waiting at the first checkpoint after one, so a catch-up is
 * visible then, not up to a checkpoint interval later. The periodic checkpoints go on as before.
 */
final class BacklogCheckpoint implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(BacklogCheckpoint.class);

    private final JobEnvironment environment;
    private final JobID job;
    private long backlogsRead;

    BacklogCheckpoint(JobEnvironment environment, JobID job) {
        this.environment = environment;
        this.job = job;
    }

    /** Looks at the source's count of backlogs read; call often (a read of a gauge in this process). */
    @Override
    public void run() {
        long read = MetricsTap.sum(FollowingMetrics.BACKLOGS_READ);
        if (read > backlogsRead) {
            backlogsRead = read;
            CompletableFuture<String> checkpoint = environment.triggerCheckpoint(job);
            // One declined (another under way, the job ending) leaves it to the periodic checkpoints.
            checkpoint.whenComplete((path, failure) -> {
                if (failure != null) {
                    LOG.debug("no checkpoint after the backlog", failure);
                }
            });
        }
    }
}
