package dev.parq.source.enumerator;

import java.io.Serializable;

import org.apache.flink.api.common.JobID;

/**
 * How a following source asks for a checkpoint of its job once it has read a backlog: the
 * compaction commits everything waiting at the first checkpoint after one, so a catch-up becomes
 * visible then, not when the periodic checkpoint comes. Flink gives a source no way to ask for a
 * checkpoint; an implementation asks the cluster the job runs on, from the JobManager's process
 * where the enumerator runs. It is called on a worker thread of the enumerator and must not wait
 * for the checkpoint; one that is refused is left to the periodic checkpoints.
 */
@FunctionalInterface
public interface CheckpointRequest extends Serializable {

    /** Asks nobody: the periodic checkpoints alone. */
    CheckpointRequest NONE = job -> {};

    /** Asks for a checkpoint of {@code job} now, besides the periodic ones. */
    void ask(JobID job) throws Exception;
}
