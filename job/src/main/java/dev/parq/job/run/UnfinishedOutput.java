package dev.parq.job.run;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.Storage;

/**
 * What a run writes before its job has finished: directories that were empty or absent when the
 * run began, and that hold only unfinished files (Flink's hidden in-progress part files) until
 * the job commits them. A run that fails, or an embedded run whose process is stopped (Ctrl-C,
 * SIGTERM), removes them again and aborts the S3 uploads begun for them, so that each directory is
 * left as the run found it: absent if it was, else empty. Without that, the next run into the same
 * directory would be told that it is not empty while {@code ls} shows nothing in it.
 *
 * <p>Under {@code flink run} the job runs on the cluster and goes on when the client process is
 * stopped, so the process's stop removes nothing there; a failure removes the files once the
 * cluster says the job has ended.
 */
final class UnfinishedOutput implements AutoCloseable {

    /** How long a stopped process waits for its job to be cancelled before removing the files. */
    private static final long CANCEL_WAIT_SECONDS = 5;
    /** How long a failed run asks a cluster whether its job has ended. */
    private static final long STATUS_WAIT_SECONDS = 10;

    private final List<Directory> directories;
    private final String what;
    private final boolean embedded;
    private final Thread hook;
    /** The job's client once it is submitted: cancelled first if the process is stopped. */
    private volatile JobClient job;
    private boolean committed;
    private boolean stopped;

    /** A directory the run writes into, and whether it was absent before the run (else empty). */
    record Directory(Path path, boolean absentBefore) {}

    private UnfinishedOutput(List<Directory> directories, String what, boolean embedded) {
        this.directories = List.copyOf(directories);
        this.what = what;
        this.embedded = embedded;
        this.hook = embedded ? new Thread(this::processStopping, "parq-unfinished-output") : null;
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * Watches {@code directory}, which the run has just prepared: {@code created} says whether the
     * run created it (else it was empty). {@code what} names the run in the message a stopped
     * process prints ("the conversion"). With {@code embedded}, a stop of this process removes it.
     */
    static UnfinishedOutput watch(Path directory, boolean created, String what, boolean embedded) {
        return watch(List.of(new Directory(directory, created)), what, embedded);
    }

    /** As {@link #watch(Path, boolean, String, boolean)}, for several directories. */
    static UnfinishedOutput watch(List<Directory> directories, String what, boolean embedded) {
        return new UnfinishedOutput(directories, what, embedded);
    }

    /**
     * Runs the job that writes into the directories to its end ({@link JobRunner#execute}). If it
     * fails, its unfinished files are removed; once it has finished, its files are committed and
     * nothing is removed any more. Fails too if the process is being stopped meanwhile.
     */
    JobExecutionResult execute(StreamExecutionEnvironment env, String jobName, long totalBytes,
            ProgressListener progress) throws ConversionException {
        JobExecutionResult result;
        try {
            result = JobRunner.execute(env, jobName, totalBytes, progress, client -> job = client);
        } catch (ConversionException e) {
            String left = discard(e);
            throw left == null ? e : new ConversionException(e.kind(), e.getMessage() + "; " + left, e);
        } catch (RuntimeException e) {
            discard(e);
            throw e;
        }
        if (!commit()) {
            throw ConversionException.failed("stopped before " + what + " finished", null);
        }
        return result;
    }

    /** The job's files are committed: false if the process is being stopped and they removed. */
    private synchronized boolean commit() {
        if (!stopped) {
            committed = true;
        }
        return committed;
    }

    /**
     * The run failed before its job committed: removes the unfinished files, unless the job runs
     * on a cluster that does not say it has ended (it may still be writing there). Returns what
     * could not be removed, in words for the failure's message (a store still failing cannot abort
     * its uploads), or null.
     */
    private String discard(Exception failure) {
        if (!embedded && job != null && !ended(job)) {
            return null;
        }
        if (!stopWhileUnfinished()) {
            return null;
        }
        try {
            remove();
            return null;
        } catch (IOException e) {
            failure.addSuppressed(e);
            String where = directories.stream().map(d -> d.path().toString()).collect(Collectors.joining(" and "));
            return "its unfinished output in " + where + " could not be removed (" + Storage.describe(e)
                    + "): multipart uploads left there stay invisible until a bucket lifecycle rule or"
                    + " `hadoop s3guard uploads -abort` ends them";
        }
    }

    /** Ends the watch: a later stop of the process removes nothing. */
    @Override
    public void close() {
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    private static boolean ended(JobClient client) {
        try {
            return client.getJobStatus().get(STATUS_WAIT_SECONDS, TimeUnit.SECONDS).isGloballyTerminalState();
        } catch (Exception e) {
            return false;
        }
    }

    /** Marks the run as stopped, unless it has committed or was stopped already. */
    private synchronized boolean stopWhileUnfinished() {
        if (committed || stopped) {
            return false;
        }
        stopped = true;
        return true;
    }

    private void processStopping() {
        if (!stopWhileUnfinished()) {
            return;
        }
        JobClient client = job;
        if (client != null) {
            try {
                client.cancel().get(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                // The process is going away, and its job with it; the files are removed all the same.
            }
        }
        String where = directories.stream().map(d -> d.path().toString()).collect(Collectors.joining(" and "));
        try {
            int aborted = remove();
            System.err.println("parq: stopped before " + what + " finished; its unfinished output in " + where
                    + " was removed" + (aborted == 0 ? "" : " and its " + aborted + " pending uploads aborted"));
        } catch (IOException e) {
            System.err.println("parq: stopped before " + what + " finished; could not remove its unfinished output in "
                    + where + ": " + e);
        }
        System.err.flush();
    }

    /** Removes the unfinished files and aborts the uploads pending for them; returns how many were. */
    private int remove() throws IOException {
        int aborted = 0;
        for (Directory directory : directories) {
            aborted += removeFrom(directory);
        }
        return aborted;
    }

    /**
     * Leaves {@code directory} as the run found it, absent or empty, with the S3 uploads pending in
     * it aborted; returns how many were.
     */
    static int removeFrom(Directory directory) throws IOException {
        int aborted = PendingUploads.abortBeneath(directory.path());
        FileSystem fs = directory.path().getFileSystem();
        if (OutputDirectory.isDirectory(fs, directory.path())) {
            OutputDirectory.deleteContents(directory.path());
            if (directory.absentBefore()) {
                fs.delete(directory.path(), false);
            }
        }
        return aborted;
    }
}
