package dev.parq.sink.commit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;

import dev.parq.sink.ParquetSinks;
import dev.parq.sink.partition.PartitionSpec;

/**
 * The partition commit of ingest: a time partition gets a {@value #SUCCESS} file, with its row
 * and file counts, once the event-time watermark has passed the partition's end by the commit
 * delay and the files of the rows it covers are all committed. A partition that gets files after
 * that (late rows) gets its file written again once they are committed.
 *
 * <p>The watermark used at a checkpoint's barrier is the one that reached this task a few
 * checkpoints before ({@code lag}): the rows it covers were written before that older barrier,
 * and their files are committed (and, with compaction, compacted and committed) by the checkpoints
 * since, whose committables reach this task before the newer barrier. Should a file of a
 * partition be committed later anyway, it makes the partition pending again, and its file is
 * written again with the counts that include it.
 */
public final class PartitionCommits implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String SUCCESS = "_SUCCESS";

    private final PartitionSpec spec;
    private final long delayMs;
    private final String output;
    private final int lag;

    /** Partitions with committed files and no success file written since. */
    private transient Set<String> pending;
    private transient TreeMap<Long, Long> watermarkAt;

    /**
     * The commits of {@code spec}'s time partitions in {@code output}, after {@code delayMs} of
     * event time, with the watermark of {@code lag} checkpoints before.
     */
    public PartitionCommits(PartitionSpec spec, long delayMs, Path output, int lag) {
        this.spec = spec;
        this.delayMs = delayMs;
        this.output = output.toString();
        this.lag = Math.max(1, lag);
    }

    /** Starts with the partitions pending in the state restored. */
    void open(Iterable<String> restored) {
        pending = new TreeSet<>();
        restored.forEach(pending::add);
        watermarkAt = new TreeMap<>();
    }

    /** The partitions to keep in a checkpoint's state. */
    Set<String> pending() {
        return pending;
    }

    /** A file of a partition was committed: it is pending until its success file is written. */
    void committed(CommittableWithLineage<FileSinkCommittable> committed) {
        FileSinkCommittable committable = committed.getCommittable();
        if (committable.hasPendingFile()) {
            pending.add(committable.getBucketId());
        }
    }

    /**
     * A checkpoint's barrier has come, after the watermark {@code watermark}: the partitions that
     * the watermark of {@code lag} checkpoints before has passed by the delay get their file.
     */
    void checkpoint(long checkpointId, long watermark) throws IOException {
        watermarkAt.put(checkpointId, watermark);
        Map.Entry<Long, Long> settled = watermarkAt.floorEntry(checkpointId - lag);
        if (settled == null) {
            return;
        }
        watermarkAt.headMap(settled.getKey()).clear();
        long covered = settled.getValue();
        if (covered < Long.MIN_VALUE + delayMs) {
            return;
        }
        for (Iterator<String> partitions = pending.iterator(); partitions.hasNext(); ) {
            String partition = partitions.next();
            OptionalLong end = spec.endMillis(partition);
            if (end.isPresent() && end.getAsLong() <= covered - delayMs) {
                writeSuccess(partition, covered);
                partitions.remove();
            }
        }
    }

    /** Writes the partition's success file beside its files, then renames it into place. */
    private void writeSuccess(String partition, long watermark) throws IOException {
        Path folder = new Path(output, partition);
        FileSystem fs = folder.getFileSystem();
        long rows = 0;
        int files = 0;
        for (FileStatus file : fs.listStatus(folder)) {
            String name = file.getPath().getName();
            if (!file.isDir() && !name.startsWith(".") && !name.startsWith("_")
                    && name.endsWith(ParquetSinks.PART_SUFFIX)) {
                rows += ParquetFooters.rowCount(file.getPath(), file.getLen());
                files++;
            }
        }
        String json = "{\"partition\": \"" + partition + "\", \"rows\": " + rows + ", \"files\": " + files
                + ", \"watermark\": \"" + Instant.ofEpochMilli(watermark) + "\", \"committed_at\": \""
                + Instant.now() + "\"}\n";
        Path temporary = new Path(folder, "." + SUCCESS + ".tmp");
        try (OutputStream out = fs.create(temporary, FileSystem.WriteMode.OVERWRITE)) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        if (!fs.rename(temporary, new Path(folder, SUCCESS))) {
            throw new IOException("cannot rename " + temporary + " to " + new Path(folder, SUCCESS));
        }
    }
}
