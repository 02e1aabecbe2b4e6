package dev.parq.job.run;

import org.apache.flink.util.SerializedThrowable;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConversionException.Kind;
import dev.parq.io.CorruptInputException;
import dev.parq.io.InputChangedException;
import dev.parq.io.NoSpaceLeftException;
import dev.parq.parse.BadLineException;
import dev.parq.sink.OutOfHeapException;

/**
 * What made a job fail, told by the type of the exceptions in its causes. A failure from a cluster
 * reaches the client with causes in {@link SerializedThrowable}s where the JobManager could not load
 * their classes; those are read back with parq's own class loader, so a bad line is recognised as a
 * {@link BadLineException} whichever process it came from.
 */
final class Failures {

    private Failures() {}

    /** The job's failure as the run's: {@code what} failed ("the conversion"), and why. */
    static ConversionException classify(String what, Throwable failure) {
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SerializedThrowable serialized) {
                Throwable original = serialized.deserializeError(Failures.class.getClassLoader());
                if (original != serialized) {
                    t = original;
                }
            }
            if (t instanceof BadLineException || t instanceof CorruptInputException) {
                return new ConversionException(Kind.BAD_LINE, t.getMessage(), failure);
            }
            if (t instanceof NoSpaceLeftException) {
                return new ConversionException(Kind.NO_SPACE, t.getMessage(), failure);
            }
            if (t instanceof OutOfHeapException || t instanceof InputChangedException) {
                return ConversionException.failed(t.getMessage(), failure);
            }
            if (t instanceof OutOfMemoryError) {
                return new ConversionException(Kind.OUT_OF_MEMORY, "a task ran out of memory (" + t.getMessage() + ")",
                        failure);
            }
            root = t;
            if (t.getCause() == t) {
                break;
            }
        }
        return ConversionException.failed(
                (what == null ? "" : what + ": ") + root.getClass().getSimpleName() + ": " + root.getMessage(), failure);
    }
}
