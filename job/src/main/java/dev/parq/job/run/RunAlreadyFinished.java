package dev.parq.job.run;

import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.client.DuplicateJobSubmissionException;

/**
 * A run started again under the fixed job id of a run that finished: its output and manifest are
 * already there, marked by that job id, so nothing is written and no job is submitted. In
 * application mode this is main() run again by a JobManager that took over after the job had
 * finished. Flink's application runner ends such a re-run successfully when main() fails with a
 * {@link DuplicateJobSubmissionException} of a globally terminated job, its own way of saying that
 * a job of that id has finished before; this carries one as its cause, so that it must reach Flink
 * from main() (see {@code dev.parq.job.Main}).
 */
public final class RunAlreadyFinished extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunAlreadyFinished(String jobId, String output) {
        super("job " + jobId + " has finished before and its output in " + output + " is complete; nothing was written",
                DuplicateJobSubmissionException.ofGloballyTerminated(JobID.fromHexString(jobId)));
    }
}
