package dev.parq.job.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.parq.job.pipeline.ConversionException;

/**
 * A run's output directory, made ready before its job is submitted. In Flink's application mode the
 * run's {@code main()} is run again after a JobManager failover, while the recovered job goes on
 * writing, or after it has finished: the directory then holds the hidden mark of that same run (its
 * fixed job id) and is left as it is, not refused as not empty, let alone emptied. The mark stays
 * once the run has finished, so that its manifest tells a finished run from one that is writing.
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
        try {
            if (Files.exists(output) && !Files.isDirectory(output)) {
                throw ConversionException.usage("output " + output + " exists and is not a directory");
            }
            if (markedBy(output, runId)) {
                return false;
            }
            if (Files.isDirectory(output)) {
                boolean empty;
                try (Stream<Path> entries = Files.list(output)) {
                    empty = entries.findAny().isEmpty();
                }
                if (!empty) {
                    if (!overwrite) {
                        throw ConversionException.usage("output directory " + output
                                + " is not empty; pass --overwrite to replace its contents");
                    }
                    deleteContents(output);
                }
            }
            boolean created = !Files.isDirectory(output);
            Files.createDirectories(output);
            mark(output, runId);
            return created;
        } catch (IOException e) {
            throw ConversionException.failed("cannot prepare output directory " + output + ": " + e, e);
        }
    }

    /**
     * Whether {@code output} holds the finished output of the run {@code runId}: its mark and the
     * manifest {@code manifest} written at its end (never, without a run id).
     */
    static boolean finishedBy(Path output, String runId, String manifest) throws ConversionException {
        try {
            return markedBy(output, runId) && Files.isRegularFile(output.resolve(manifest));
        } catch (IOException e) {
            throw ConversionException.failed("cannot read " + output.resolve(RUN_MARK) + ": " + e, e);
        }
    }

    /** Whether {@code directory} holds the mark of the run {@code runId} (never, without one). */
    static boolean markedBy(Path directory, String runId) throws IOException {
        Path mark = directory.resolve(RUN_MARK);
        return runId != null && Files.isRegularFile(mark) && runId.equals(Files.readString(mark, StandardCharsets.UTF_8));
    }

    /** Marks {@code directory} as the run {@code runId}'s; without one, does nothing. */
    static void mark(Path directory, String runId) throws IOException {
        if (runId != null) {
            Files.writeString(directory.resolve(RUN_MARK), runId, StandardCharsets.UTF_8);
        }
    }

    /**
     * Deletes everything in {@code directory}, deepest first. What vanishes meanwhile (the files of
     * tasks being cancelled) counts as deleted.
     */
    static void deleteContents(Path directory) throws IOException {
        try (Stream<Path> entries = Files.walk(directory)) {
            for (Path path : entries.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                if (!path.equals(directory)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
        }
    }
}
