package dev.parq.sink.commit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
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
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;

import dev.parq.sink.ParquetSinks;
import dev.parq.sink.partition.PartitionSpec;

/**
 * The partition commit of ingest: a time partition gets a {@value #SUCCESS} file, with its row
 * and file counts, once the files of a checkpoint are all committed and the event-time watermark
 * taken at that checkpoint has passed the partition's end by the commit delay. A partition that
 * gets files after that (late rows) gets its file written again once they are committed.
 *
 * <p>A checkpoint's files are all committed when every committer has reported it, each with as
 * many committables as its summary counts; the watermark is the one that reached the commit
 * stage before that checkpoint's barrier, so every row it covers was written before the barrier.
 */
public final class PartitionCommits implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String SUCCESS = "_SUCCESS";

    private final PartitionSpec spec;
    private final long delayMs;
    private final String output;

    /** Partitions with committed files and no success file written since. */
    private transient Set<String> pending;
    private transient Map<Long, Long> watermarkAt;
    private transient Map<Long, Reports> reports;

    /** What the committers reported of one checkpoint. */
    private static final class Reports {
        final Set<Integer> summarized = new HashSet<>();
        int subtasks = Integer.MAX_VALUE;
        int expected;
        int received;
    }

    public PartitionCommits(PartitionSpec spec, long delayMs, Path output) {
        this.spec = spec;
        this.delayMs = delayMs;
        this.output = output.toString();
    }

    /** Starts with the partitions pending in the state restored. */
    void open(Iterable<String> restored) {
        pending = new TreeSet<>();
        restored.forEach(pending::add);
        watermarkAt = new TreeMap<>();
        reports = new HashMap<>();
    }

    /** The partitions to keep in a checkpoint's state. */
    Set<String> pending() {
        return pending;
    }

    /** A checkpoint's barrier has come, after the watermark {@code watermark}. */
    void checkpoint(long checkpointId, long watermark) {
        watermarkAt.put(checkpointId, watermark);
    }

    void summary(CommittableSummary<FileSinkCommittable> summary) throws IOException {
        Reports of = reports.computeIfAbsent(summary.getCheckpointId(), id -> new Reports());
        if (of.summarized.add(summary.getSubtaskId())) {
            of.subtasks = summary.getNumberOfSubtasks();
            of.expected += summary.getNumberOfCommittables();
        }
        completeIfReported(summary.getCheckpointId(), of);
    }

    void committed(CommittableWithLineage<FileSinkCommittable> committed) throws IOException {
        FileSinkCommittable committable = committed.getCommittable();
        if (committable.hasPendingFile()) {
            pending.add(committable.getBucketId());
        }
        Reports of = reports.computeIfAbsent(committed.getCheckpointId(), id -> new Reports());
        of.received++;
        completeIfReported(committed.getCheckpointId(), of);
    }

    private void completeIfReported(long checkpointId, Reports of) throws IOException {
        if (of.summarized.size() < of.subtasks || of.received < of.expected) {
            return;
        }
        reports.keySet().removeIf(id -> id <= checkpointId);
        Long watermark = watermarkAt.get(checkpointId);
        watermarkAt.keySet().removeIf(id -> id <= checkpointId);
        if (watermark == null || watermark < Long.MIN_VALUE + delayMs) {
            return;
        }
        for (Iterator<String> partitions = pending.iterator(); partitions.hasNext(); ) {
            String partition = partitions.next();
            OptionalLong end = spec.endMillis(partition);
            if (end.isPresent() && end.getAsLong() <= watermark - delayMs) {
                writeSuccess(partition, watermark);
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
