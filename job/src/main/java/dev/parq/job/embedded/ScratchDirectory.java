package dev.parq.job.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The embedded cluster's working directory: Flink deletes it when the cluster has shut down, which
 * a command that exits once its job is done does not wait for, so it lives in a directory of this
 * JVM's that is deleted at exit, and runs leave nothing behind in /tmp.
 */
final class ScratchDirectory {

    private ScratchDirectory() {}

    private static Path directory;

    /** A temporary directory of this JVM, deleted with its contents when the JVM exits. */
    static synchronized Path get() {
        if (directory == null) {
            try {
                Path created = Files.createTempDirectory("parq-cluster-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(created), "parq-scratch-cleanup"));
                directory = created;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary directory for the embedded cluster", e);
            }
        }
        return directory;
    }

    /** Deletes a directory tree as far as it can: Flink's own shutdown hooks delete parts of it meanwhile. */
    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // left for the next walk, or for the system's temporary-file cleaning
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a part vanished while walking: Flink deleted it
        }
    }
}
