package dev.parq.job.run;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;

/**
 * The snapshots an ingest run may resume from: the savepoints and retained checkpoints in its
 * state directory that are complete (a checkpoint cut short has no {@code _metadata}) and
 * readable, newest first.
 */
final class RestorePoints {

    private static final String METADATA = "_metadata";

    /** A snapshot's directory (or URI, when given) and the checkpoint it was taken as. */
    record Snapshot(String location, long checkpointId) {}

    private RestorePoints() {}

    /**
     * The newest readable snapshot in {@code stateDir}, or null if there is none; each newer one
     * that cannot be read is told to {@code unreadable} and passed over.
     */
    static Snapshot newest(Path stateDir, Consumer<String> unreadable) throws IOException {
        List<Path> metadata = new ArrayList<>();
        metadata.addAll(metadataFiles(stateDir.resolve(FlinkSettings.SAVEPOINTS), 2));
        metadata.addAll(metadataFiles(stateDir.resolve(FlinkSettings.CHECKPOINTS), 3));
        metadata.sort(Comparator.comparing(RestorePoints::modified).reversed());
        for (Path file : metadata) {
            try {
                return new Snapshot(file.getParent().toString(), checkpointId(file.getParent().toUri().toString()));
            } catch (IOException | RuntimeException e) {
                unreadable.accept(file.getParent() + " cannot be read (" + e.getMessage() + "); trying the one before");
            }
        }
        return null;
    }

    /** The snapshot the user named ({@code flink run -s}): it must be readable; nothing else is tried. */
    static Snapshot named(Path location) throws ConversionException {
        try {
            return new Snapshot(location.toString(), checkpointId(location.toUri().toString()));
        } catch (IOException | RuntimeException e) {
            throw ConversionException.usage("cannot resume from " + location + ": " + e.getMessage());
        }
    }

    /** The checkpoint id of the snapshot at {@code location}: its directory, or its {@code _metadata} file. */
    static long checkpointId(String location) throws IOException {
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path(location);
        if (!path.getName().equals(METADATA)) {
            path = new org.apache.flink.core.fs.Path(path, METADATA);
        }
        FileSystem fs = path.getFileSystem();
        try (InputStream in = fs.open(path); DataInputStream data = new DataInputStream(in)) {
            CheckpointMetadata metadata = Checkpoints.loadCheckpointMetadata(data,
                    RestorePoints.class.getClassLoader(), path.getParent().toString());
            return metadata.getCheckpointId();
        }
    }

    private static List<Path> metadataFiles(Path root, int depth) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root, depth)) {
            return paths.filter(p -> p.getFileName().toString().equals(METADATA) && Files.isRegularFile(p)).toList();
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
