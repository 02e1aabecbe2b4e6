package dev.parq.job.cli;

import dev.parq.job.pipeline.ConversionException;

/** How the command line words a run that could not be done. */
final class FailureWording {

    private FailureWording() {}

    /** The message of {@code failure}, with what the user can do about it where parq knows. */
    static String of(ConversionException failure) {
        if (failure.kind() == ConversionException.Kind.OUT_OF_MEMORY) {
            return failure.getMessage() + ": very long lines, or very wide rows, need a larger heap"
                    + " (./parq: PARQ_JAVA_OPTS=-Xmx2g; a Flink cluster: taskmanager.memory.task.heap.size)";
        }
        return failure.getMessage();
    }
}
