package dev.parq.job.run;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.annotation.Nullable;

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
    /** A retained checkpoint's directory, {@code chk-N}; a savepoint's name carries no checkpoint. */
    private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");

    /** A snapshot's directory (or URI, when given) and the checkpoint it was taken as. */
    record Snapshot(String location, long checkpointId) {}

    /**
     * A snapshot whose {@code _metadata} could not be read: where, the checkpoint its directory is
     * named after (-1 for a savepoint, whose name says none), and why.
     */
    record Unreadable(String location, long namedCheckpoint, String reason) {}

    /**
     * What a state directory holds: whether it is there at all, its newest readable snapshot (null
     * if none), and the newer snapshots passed over because they could not be read, newest first.
     */
    record Found(boolean exists, @Nullable Snapshot newest, List<Unreadable> unreadable) {}

    private RestorePoints() {}

    /** The newest readable snapshot in {@code stateDir}, and the newer ones that cannot be read. */
    static Found newest(Path stateDir) throws IOException {
        FileSystem fs = stateDir.getFileSystem();
        if (!fs.exists(stateDir)) {
            return new Found(false, null, List.of());
        }
        List<FileStatus> metadata = new ArrayList<>();
        metadataFiles(fs, new Path(stateDir, FlinkSettings.SAVEPOINTS), 2, metadata);
        metadataFiles(fs, new Path(stateDir, FlinkSettings.CHECKPOINTS), 3, metadata);
        metadata.sort(Comparator.comparingLong(FileStatus::getModificationTime).reversed());
        List<Unreadable> unreadable = new ArrayList<>();
        for (FileStatus file : metadata) {
            Path directory = file.getPath().getParent();
            try {
                return new Found(true, new Snapshot(Storage.display(directory), checkpointId(directory.toString())),
                        unreadable);
            } catch (IOException | RuntimeException e) {
                Matcher checkpoint = CHECKPOINT_DIRECTORY.matcher(directory.getName());
                unreadable.add(new Unreadable(Storage.display(file.getPath()),
                        checkpoint.matches() ? Long.parseLong(checkpoint.group(1)) : -1, reason(e)));
            }
        }
        return new Found(true, null, unreadable);
    }

    /** The snapshot the user named ({@code flink run -s}): it must be readable; nothing else is tried. */
    static Snapshot named(Path location) throws ConversionException {
        try {
            return new Snapshot(Storage.display(location), checkpointId(location.toString()));
        } catch (IOException | RuntimeException e) {
            throw ConversionException.usage("cannot resume from " + location + ": " + reason(e));
        }
    }

    /** The directory of the snapshot at {@code location}: itself, or the parent of its {@code _metadata} file. */
    static Path directory(Path location) {
        return location.getName().equals(METADATA) ? location.getParent() : location;
    }

    /** The checkpoint id of the snapshot at {@code location}: its directory, or its {@code _metadata} file. */
    static long checkpointId(String location) throws IOException {
        Path path = new Path(directory(new Path(location)), METADATA);
        FileSystem fs = path.getFileSystem();
        try (InputStream in = fs.open(path); DataInputStream data = new DataInputStream(in)) {
            CheckpointMetadata metadata = Checkpoints.loadCheckpointMetadata(data,
                    RestorePoints.class.getClassLoader(), path.getParent().toString());
            return metadata.getCheckpointId();
        } catch (OutOfMemoryError e) {
            // A damaged length in the file asks for an array larger than the heap: only that allocation failed.
            throw new IOException("damaged: it asks for more memory than there is", e);
        }
    }

    /** Why a snapshot could not be read, in a few words: a cut file's end of stream says nothing by itself. */
    private static String reason(Exception e) {
        if (e instanceof EOFException) {
            return "it ends too early: cut short";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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
