package dev.parq.job.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.parq.io.NoSpaceLeftException;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConversionException.Kind;
import dev.parq.job.pipeline.Storage;

/**
 * A job that failed because a disk it writes to is full, told as such, with the place. A part
 * file that cannot be written names itself ({@link NoSpaceLeftException}); a checkpoint that cannot
 * be written does not: Flink fails the job with "Exceeded checkpoint tolerable failure threshold"
 * alone, and the cause stays in the JobManager's log. So when a job's failure names no full disk,
 * the local places the run writes to are looked at as it ends, and one that has no room left is
 * taken for the cause.
 */
final class FullDisk {

    /** Less than this free and a file system counts as full: a checkpoint or a row group needs more. */
    static final long FULL_BELOW_BYTES = 1 << 20;

    private FullDisk() {}

    /**
     * {@code classified}, the failure of a job, as a full disk if it was one or if one of the
     * {@code places} (where, by what is written there) is full now, followed by {@code then}, what
     * the user can do about it.
     */
    static ConversionException named(ConversionException classified,
            Map<String, org.apache.flink.core.fs.Path> places, String then) {
        if (classified.kind() == Kind.NO_SPACE) {
            return new ConversionException(Kind.NO_SPACE, classified.getMessage() + "; " + then, classified.getCause());
        }
        if (classified.kind() != Kind.FAILED) {
            return classified;
        }
        for (Map.Entry<String, org.apache.flink.core.fs.Path> place : places.entrySet()) {
            Long free = freeBytes(place.getValue());
            if (free != null && free < FULL_BELOW_BYTES) {
                return new ConversionException(Kind.NO_SPACE, "no space left on device writing " + place.getKey()
                        + " in " + Storage.display(place.getValue()) + " (" + free + " bytes free there); " + then,
                        classified.getCause());
            }
        }
        if (NoSpaceLeftException.isNoSpace(classified)) {
            return new ConversionException(Kind.NO_SPACE, "no space left on device where the job wrote ("
                    + classified.getMessage() + "); " + then, classified.getCause());
        }
        return classified;
    }

    /** The bytes free to this process on the local file system of {@code place}, or null if that is not known. */
    private static Long freeBytes(org.apache.flink.core.fs.Path place) {
        if (!Storage.isLocal(place)) {
            return null;
        }
        try {
            return Files.getFileStore(Path.of(place.toUri().getPath())).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
