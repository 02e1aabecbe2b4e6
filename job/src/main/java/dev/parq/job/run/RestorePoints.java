package dev.parq.job.run;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.Storage;

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
        FileSystem fs = stateDir.getFileSystem();
        List<FileStatus> metadata = new ArrayList<>();
        metadataFiles(fs, new Path(stateDir, FlinkSettings.SAVEPOINTS), 2, metadata);
        metadataFiles(fs, new Path(stateDir, FlinkSettings.CHECKPOINTS), 3, metadata);
        metadata.sort(Comparator.comparingLong(FileStatus::getModificationTime).reversed());
        for (FileStatus file : metadata) {
            String snapshot = Storage.display(file.getPath().getParent());
            try {
                return new Snapshot(snapshot, checkpointId(file.getPath().getParent().toString()));
            } catch (IOException | RuntimeException e) {
                unreadable.accept(snapshot + " cannot be read (" + e.getMessage() + "); trying the one before");
            }
        }
        return null;
    }

    /** The snapshot the user named ({@code flink run -s}): it must be readable; nothing else is tried. */
    static Snapshot named(Path location) throws ConversionException {
        try {
            return new Snapshot(Storage.display(location), checkpointId(location.toString()));
        } catch (IOException | RuntimeException e) {
            throw ConversionException.usage("cannot resume from " + location + ": " + e.getMessage());
        }
    }

    /** The checkpoint id of the snapshot at {@code location}: its directory, or its {@code _metadata} file. */
    static long checkpointId(String location) throws IOException {
        Path path = new Path(location);
        if (!path.getName().equals(METADATA)) {
            path = new Path(path, METADATA);
        }
        FileSystem fs = path.getFileSystem();
        try (InputStream in = fs.open(path); DataInputStream data = new DataInputStream(in)) {
            CheckpointMetadata metadata = Checkpoints.loadCheckpointMetadata(data,
                    RestorePoints.class.getClassLoader(), path.getParent().toString());
            return metadata.getCheckpointId();
        }
    }

    /** The {@code _metadata} files within {@code depth} levels under {@code directory}, into {@code found}. */
    private static void metadataFiles(FileSystem fs, Path directory, int depth, List<FileStatus> found)
            throws IOException {
        for (FileStatus entry : OutputDirectory.list(fs, directory)) {
            if (entry.isDir()) {
                if (depth > 1) {
                    metadataFiles(fs, entry.getPath(), depth - 1, found);
                }
            } else if (entry.getPath().getName().equals(METADATA)) {
                found.add(entry);
            }
        }
    }
}
