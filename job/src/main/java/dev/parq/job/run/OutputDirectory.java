package dev.parq.job.run;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.Storage;

/**
 * A run's output directory, made ready before its job is submitted, on any Flink file system (a
 * local folder, or a prefix of an object store, where a "directory" is the objects under it). In
 * Flink's application mode the run's {@code main()} is run again after a JobManager failover, while
 * the recovered job goes on writing, or after it has finished: the directory then holds the hidden
 * mark of that same run (its fixed job id) and is left as it is, not refused as not empty, let alone
 * emptied. The mark stays once the run has finished, so that its manifest tells a finished run from
 * one that is writing.
 */
final class OutputDirectory {

    /** Hidden, so that readers of the output and the manifest pass over it. */
    static final String RUN_MARK = ".parq-run";

    private OutputDirectory() {}

    /**
     * Makes {@code output} an empty directory: creates it, or empties it with {@code overwrite}. With a
     * {@code runId} (the job id is fixed, as in application mode), marks it as that run's, and leaves
     * a directory already marked by that run as it is.
     * Returns whether it created the directory.
     */
    static boolean prepare(Path output, boolean overwrite, String runId) throws ConversionException {
        FileSystem fs = Storage.fileSystem(output, "output");
        try {
            FileStatus status = statusOrNull(fs, output);
            if (status != null && !status.isDir()) {
                throw ConversionException.usage("output " + output + " exists and is not a directory");
            }
            if (markedBy(output, runId)) {
                return false;
            }
            if (status != null && !isEmpty(fs, output)) {
                if (!overwrite) {
                    throw ConversionException.usage("output directory " + output
                            + " is not empty; pass --overwrite to replace its contents");
                }
                deleteContents(output);
            }
            boolean created = status == null;
            fs.mkdirs(output);
            mark(output, runId);
            return created;
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare output directory " + output + ": " + Storage.describe(e), e);
        }
    }

    /**
     * Whether {@code output} holds the finished output of the run {@code runId}: its mark and the
     * manifest {@code manifest} written at its end (never, without a run id).
     */
    static boolean finishedBy(Path output, String runId, String manifest) throws ConversionException {
        try {
            return markedBy(output, runId) && isFile(output.getFileSystem(), new Path(output, manifest));
        } catch (IOException e) {
            throw ConversionException.failed("cannot read " + new Path(output, RUN_MARK) + ": " + Storage.describe(e), e);
        }
    }

    /** Whether {@code directory} holds the mark of the run {@code runId} (never, without one). */
    static boolean markedBy(Path directory, String runId) throws IOException {
        if (runId == null) {
            return false;
        }
        Path mark = new Path(directory, RUN_MARK);
        FileSystem fs = mark.getFileSystem();
        if (!isFile(fs, mark)) {
            return false;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (InputStream in = fs.open(mark)) {
            in.transferTo(bytes);
        }
        return runId.equals(bytes.toString(StandardCharsets.UTF_8));
    }

    /** Marks {@code directory} as the run {@code runId}'s; without one, does nothing. */
    static void mark(Path directory, String runId) throws IOException {
        if (runId != null) {
            Path mark = new Path(directory, RUN_MARK);
            try (OutputStream out = mark.getFileSystem().create(mark, FileSystem.WriteMode.OVERWRITE)) {
                out.write(runId.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Deletes everything in {@code directory}. What vanishes meanwhile (the files of tasks being
     * cancelled) counts as deleted.
     */
    static void deleteContents(Path directory) throws IOException {
        FileSystem fs = directory.getFileSystem();
        for (FileStatus entry : list(fs, directory)) {
            try {
                // A local delete gives up (false) on a file that vanished under it: once more, then.
                if (!fs.delete(entry.getPath(), true) && fs.exists(entry.getPath())) {
                    fs.delete(entry.getPath(), true);
                }
            } catch (FileNotFoundException gone) {
                // deleted meanwhile
            }
        }
    }

    /** The entries of {@code directory}; none if it is not there (any more). */
    static FileStatus[] list(FileSystem fs, Path directory) throws IOException {
        try {
            FileStatus[] entries = fs.listStatus(directory);
            return entries == null ? new FileStatus[0] : entries;
        } catch (FileNotFoundException missing) {
            return new FileStatus[0];
        }
    }

    static boolean isEmpty(FileSystem fs, Path directory) throws IOException {
        return list(fs, directory).length == 0;
    }

    /** The status of {@code path}, or null if there is nothing there. */
    static FileStatus statusOrNull(FileSystem fs, Path path) throws IOException {
        try {
            return fs.getFileStatus(path);
        } catch (FileNotFoundException missing) {
            return null;
        }
    }

    static boolean isFile(FileSystem fs, Path path) throws IOException {
        FileStatus status = statusOrNull(fs, path);
        return status != null && !status.isDir();
    }

    static boolean isDirectory(FileSystem fs, Path path) throws IOException {
        FileStatus status = statusOrNull(fs, path);
        return status != null && status.isDir();
    }
}
