package dev.parq.job;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.flink.core.execution.JobClient;

/**
 * What a run writes before its job has finished: directories that were empty or absent when the
 * run began, and that hold only unfinished files (Flink's hidden in-progress part files) until
 * the job commits them. A run that fails, or an embedded run whose process is stopped (Ctrl-C,
 * SIGTERM), removes them again, so that each directory is left as the run found it: absent if it
 * was, else empty. Without that, the next run into the same directory would be told that it is
 * not empty while {@code ls} shows nothing in it.
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
    private final PrintStream messages;
    private final boolean embedded;
    private final Thread hook;
    private volatile JobClient job;
    private boolean committed;
    private boolean stopped;

    /** A directory the run writes into, and whether it was absent before the run (else empty). */
    record Directory(Path path, boolean absentBefore) {}

    private UnfinishedOutput(List<Directory> directories, String what, boolean embedded, PrintStream messages) {
        this.directories = List.copyOf(directories);
        this.what = what;
        this.messages = messages;
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
        return new UnfinishedOutput(directories, what, embedded, System.err);
    }

    /** The job that writes into the directory, cancelled first if the process is stopped. */
    void jobStarted(JobClient client) {
        this.job = client;
    }

    /**
     * The job has finished and its files are committed: from now on nothing is removed. False if
     * the process is already being stopped and the directory removed (the run must not go on).
     */
    synchronized boolean committed() {
        if (!stopped) {
            committed = true;
        }
        return committed;
    }

    /**
     * The run failed before its job committed: removes the directory's unfinished files, unless
     * the job runs on a cluster that does not say it has ended (it may still be writing there).
     */
    void discard(Exception failure) {
        if (!embedded && job != null && !ended(job)) {
            return;
        }
        synchronized (this) {
            if (committed || stopped) {
                return;
            }
            stopped = true;
        }
        try {
            remove();
        } catch (IOException e) {
            failure.addSuppressed(e);
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
            remove();
            messages.println("parq: stopped before " + what + " finished; its unfinished output in " + where
                    + " was removed");
        } catch (IOException e) {
            messages.println("parq: stopped before " + what + " finished; could not remove its unfinished output in "
                    + where + ": " + e);
        }
        messages.flush();
    }

    private void remove() throws IOException {
        for (Directory directory : directories) {
            remove(directory.path(), directory.absentBefore());
        }
    }

    private static void remove(Path directory, boolean absentBefore) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        // Tasks being cancelled may still be closing their files: what vanishes meanwhile is fine.
        try (Stream<Path> entries = Files.walk(directory)) {
            for (Path path : entries.sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList()) {
                if (!path.equals(directory)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
        }
        if (absentBefore) {
            Files.deleteIfExists(directory);
        }
    }
}
