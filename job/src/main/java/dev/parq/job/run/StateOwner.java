package dev.parq.job.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Properties;
import java.util.UUID;

import javax.annotation.Nullable;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import dev.parq.job.pipeline.Storage;
import dev.parq.sink.commit.CommitRecord;

/**
 * Which output the snapshots of a state directory are of. An ingest output gets an id at its first
 * start ({@code OUTPUT/_parq/id}), and its state directory a mark naming that id and the output
 * ({@code STATE/parq-output}): a snapshot of one output resumed into another would pass over every
 * line the first one holds, and leave it out of the second. An output moved elsewhere keeps its id;
 * a state directory with no mark (made by an earlier parq) is no evidence either way.
 */
final class StateOwner {

    static final String OUTPUT_ID = "id";
    static final String MARK = "parq-output";
    private static final String ID = "id";
    private static final String OUTPUT = "output";
    /** From a snapshot's directory up to its state directory: {@code checkpoints/JOB/chk-N}. */
    private static final int LEVELS_UP = 3;

    /** A state directory's mark: the id of the output its snapshots are of, and where that output was. */
    record Mark(Path stateDir, String outputId, String output) {}

    private StateOwner() {}

    /** The id of {@code output}, or null if no ingest with marks has started on it. */
    @Nullable
    static String outputId(Path output) throws IOException {
        return read(idFile(output)).getProperty(ID);
    }

    /** The mark of {@code stateDir}, or null if it has none. */
    @Nullable
    static Mark mark(Path stateDir) throws IOException {
        Properties mark = read(new Path(stateDir, MARK));
        String id = mark.getProperty(ID);
        String output = mark.getProperty(OUTPUT);
        return id == null || output == null ? null : new Mark(stateDir, id, output);
    }

    /**
     * The mark of the state directory that holds the snapshot in {@code snapshotDirectory}
     * ({@code STATE/savepoints/savepoint-...} or {@code STATE/checkpoints/JOB/chk-N}), or null if
     * none is found above it: a snapshot copied elsewhere tells nothing of its output.
     */
    @Nullable
    static Mark markAbove(Path snapshotDirectory) throws IOException {
        Path directory = snapshotDirectory.getParent();
        for (int level = 0; level < LEVELS_UP && directory != null; level++, directory = directory.getParent()) {
            Mark mark = mark(directory);
            if (mark != null) {
                return mark;
            }
        }
        return null;
    }

    /**
     * Whether {@code mark} is that of {@code output}: the same id, or, for an output with no id yet
     * (emptied, or never started with marks), the same place.
     */
    static boolean isOf(Mark mark, @Nullable String outputId, Path output) {
        return outputId != null ? outputId.equals(mark.outputId()) : mark.output().equals(Storage.display(output));
    }

    /**
     * Gives {@code output} an id if it has none (its state directory's, when that is marked as
     * this output's), and marks {@code stateDir} as holding its snapshots.
     */
    static void claim(Path output, Path stateDir) throws IOException {
        String id = outputId(output);
        Mark mark = mark(stateDir);
        if (id == null) {
            id = mark != null && isOf(mark, null, output) ? mark.outputId() : UUID.randomUUID().toString();
            Properties properties = new Properties();
            properties.setProperty(ID, id);
            write(idFile(output), properties, "the id of this parq ingest output, which its state directory names");
        }
        if (mark == null || !mark.outputId().equals(id) || !mark.output().equals(Storage.display(output))) {
            Properties properties = new Properties();
            properties.setProperty(ID, id);
            properties.setProperty(OUTPUT, Storage.display(output));
            write(new Path(stateDir, MARK), properties, "the parq ingest output whose snapshots these are");
        }
    }

    private static Path idFile(Path output) {
        return new Path(new Path(output, CommitRecord.DIRECTORY), OUTPUT_ID);
    }

    /** The properties in {@code file}: none if it is not there. */
    private static Properties read(Path file) throws IOException {
        FileSystem fs = file.getFileSystem();
        Properties properties = new Properties();
        if (fs.exists(file)) {
            try (InputStream in = fs.open(file)) {
                properties.load(in);
            }
        }
        return properties;
    }

    /** Writes {@code properties} in place: a mark cut short lacks a key, and is then no mark at all. */
    private static void write(Path file, Properties properties, String comment) throws IOException {
        FileSystem fs = file.getFileSystem();
        fs.mkdirs(file.getParent());
        try (OutputStream out = fs.create(file, FileSystem.WriteMode.OVERWRITE)) {
            properties.store(out, comment);
        }
    }
}
