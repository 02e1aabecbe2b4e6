package dev.parq.job.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import dev.parq.job.pipeline.FlinkSettings;

/**
 * The snapshot an ingest run resumes from: the newest complete savepoint or retained checkpoint in
 * its state directory (one with its {@code _metadata}; a checkpoint cut short has none).
 */
final class RestorePoints {

    private static final String METADATA = "_metadata";

    private RestorePoints() {}

    /** The directory of the newest snapshot in {@code stateDir}, or null if there is none. */
    static Path newest(Path stateDir) throws IOException {
        Optional<Path> savepoint = newestMetadata(stateDir.resolve(FlinkSettings.SAVEPOINTS), 2);
        Optional<Path> checkpoint = newestMetadata(stateDir.resolve(FlinkSettings.CHECKPOINTS), 3);
        Optional<Path> newest = Stream.of(savepoint, checkpoint).flatMap(Optional::stream)
                .max(Comparator.comparing(RestorePoints::modified));
        return newest.map(Path::getParent).orElse(null);
    }

    private static Optional<Path> newestMetadata(Path root, int depth) throws IOException {
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> paths = Files.walk(root, depth)) {
            return paths.filter(p -> p.getFileName().toString().equals(METADATA) && Files.isRegularFile(p))
                    .max(Comparator.comparing(RestorePoints::modified));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static FileTime modified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
