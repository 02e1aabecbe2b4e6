package dev.parq.job.run;

import org.apache.flink.util.SerializedThrowable;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConversionException.Kind;
import dev.parq.job.pipeline.Storage;
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
        return classify(what, failure, null);
    }

    /**
     * As {@link #classify(String, Throwable)}; a failure of the object store's (S3A's, or its AWS
     * SDK's) says so and names {@code job} ("parq convert to s3a://lake/out"), which holds its output.
     */
    static ConversionException classify(String what, Throwable failure, String job) {
        Throwable root = failure;
        boolean fromStore = false;
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
            fromStore |= isObjectStores(t);
            root = t;
            if (t.getCause() == t) {
                break;
            }
        }
        if (fromStore) {
            return ConversionException.failed((what == null ? "" : what + ": ")
                    + (job == null ? "" : job.replaceFirst("^parq ", "") + ": ")
                    + "the object store failed, and S3A gave up after its retries: " + Storage.describe(failure), failure);
        }
        return ConversionException.failed(
                (what == null ? "" : what + ": ") + root.getClass().getSimpleName() + ": " + root.getMessage(), failure);
    }

    /** Whether {@code t} is S3A's or its AWS SDK's, whether as itself or serialized by a cluster. */
    private static boolean isObjectStores(Throwable t) {
        String type = t instanceof SerializedThrowable serialized ? serialized.getOriginalErrorClassName()
                : t.getClass().getName();
        return type.startsWith("com.amazonaws.") || type.startsWith("org.apache.hadoop.fs.s3a.");
    }
}
