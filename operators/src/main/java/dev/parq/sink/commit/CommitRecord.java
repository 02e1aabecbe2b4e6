package dev.parq.sink.commit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Properties;
import java.util.Set;

import javax.annotation.Nullable;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The newest checkpoint whose files were committed to an output, kept in the output itself
 * ({@code OUTPUT/_parq/committed}). Resuming from an older checkpoint than this would read again,
 * and commit a second time, every line committed since; the record is what tells.
 */
public final class CommitRecord {

    public static final String DIRECTORY = "_parq";
    public static final String FILE = "committed";
    private static final String CHECKPOINT = "checkpoint";
    private static final String AT = "committed-at";
    /** The schemes of Flink's object store file systems (S3, Google Cloud Storage, Aliyun OSS). */
    private static final Set<String> OBJECT_STORES = Set.of("s3", "s3a", "s3p", "gs", "oss");

    private final Path file;

    public CommitRecord(Path output) {
        this.file = new Path(new Path(output, DIRECTORY), FILE);
    }

    public Path file() {
        return file;
    }

    /** The checkpoint recorded, or null if none is (nothing was ever committed here by ingest). */
    @Nullable
    public Long read() throws IOException {
        FileSystem fs = file.getFileSystem();
        if (!fs.exists(file)) {
            return null;
        }
        Properties properties = new Properties();
        try (InputStream in = fs.open(file)) {
            properties.load(in);
        }
        String checkpoint = properties.getProperty(CHECKPOINT);
        try {
            return Long.parseLong(checkpoint == null ? "" : checkpoint.strip());
        } catch (NumberFormatException e) {
            throw new IOException(file + " does not name a checkpoint (it reads " + checkpoint + ")", e);
        }
    }

    /**
     * Records {@code checkpoint} so that it is never half written: on a file system, written beside
     * the record and renamed over it; in an object store (S3), where an object appears whole when
     * its upload completes and a rename is a copy that will not replace an object, written in place.
     */
    public void write(long checkpoint) throws IOException {
        FileSystem fs = file.getFileSystem();
        boolean objectStore = OBJECT_STORES.contains(String.valueOf(file.toUri().getScheme()));
        fs.mkdirs(file.getParent());
        Path target = objectStore ? file : new Path(file.getParent(), "." + FILE + ".tmp");
        Properties properties = new Properties();
        properties.setProperty(CHECKPOINT, Long.toString(checkpoint));
        properties.setProperty(AT, Instant.now().toString());
        try (OutputStream out = fs.create(target, FileSystem.WriteMode.OVERWRITE)) {
            properties.store(out, "the newest checkpoint whose files parq ingest committed here");
        }
        if (!objectStore && !fs.rename(target, file)) {
            throw new IOException("cannot rename " + target + " to " + file);
        }
    }

    /** Forgets the record, for a run told to start over. */
    public void delete() throws IOException {
        file.getFileSystem().delete(file, false);
    }
}
