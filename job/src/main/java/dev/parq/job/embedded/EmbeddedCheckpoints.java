package dev.parq.job.embedded;

import org.apache.flink.api.common.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.source.enumerator.CheckpointRequest;

/** Asks the embedded cluster in this process that runs a job for a checkpoint of it. */
public enum EmbeddedCheckpoints implements CheckpointRequest {
    INSTANCE;

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCheckpoints.class);

    @Override
    public void ask(JobID job) {
        EarlyMiniCluster cluster = EarlyMiniCluster.running(job);
        if (cluster == null) {
            LOG.debug("no cluster of this process runs {}", job);
            return;
        }
        // One declined (another under way, the job ending) leaves it to the periodic checkpoints.
        cluster.triggerCheckpoint(job).whenComplete((path, failure) -> {
            if (failure != null) {
                LOG.debug("no checkpoint after the backlog", failure);
            }
        });
    }
}
