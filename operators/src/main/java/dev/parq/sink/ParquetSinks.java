package dev.parq.sink;

import dev.parq.batch.ArrowBatch;
import dev.parq.sink.compact.ParquetFileCompactor;
import dev.parq.sink.compact.SavepointCompaction;
import dev.parq.sink.partition.PartitionBuckets;
import dev.parq.sink.partition.PartitionOptions;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.table.types.logical.RowType;

/**
 * The sink stage: Arrow batches into {@code part-*.parquet} files in the output directory, or in
 * its partition folders for batches a {@link dev.parq.sink.partition.BatchPartitioner} has split.
 */
public final class ParquetSinks {

    public static final String PART_PREFIX = "part";
    public static final String PART_SUFFIX = ".parquet";
    /** What Flink's compaction puts before the name of the first part file it compacts into a file. */
    public static final String COMPACTED_PREFIX = "compacted-";
    /**
     * Compactions of a subtask run one at a time: the compacting tasks are as many as the writers,
     * and their requests come in at most one per bucket and compaction.
     */
    private static final int COMPACTION_THREADS = 1;

    /**
     * Part files whose row groups average at least this fraction of the row-group size have them
     * copied into the compacted file, not written again: a compacted file of such row groups reads
     * about as well, and the copy costs no CPU (a 1 GiB catch-up's compaction wrote every row
     * again, 6 of its 19.5 CPU-seconds).
     */
    static final int COPIED_ROW_GROUP_FRACTION = 8;

    /**
     * How often the sink looks for part files to close past the cap on open ones: often, since
     * each is a writer holding its row group.
     */
    private static final long BUCKET_CHECK_MS = 200;

    private ParquetSinks() {}

    /**
     * A file sink writing every batch into Parquet part files in {@code outputDir}, or its
     * partition's folder under it. A part file is committed on each checkpoint and at the end of a
     * bounded job, and ends once it reaches {@code options}' target size.
     */
    public static FileSink<ArrowBatch> forBatches(Path outputDir, RowType rowType, ParquetWriterOptions options) {
        return forBatches(outputDir, writerFactory(outputDir, rowType, options), options,
                PartitionOptions.MAX_OPEN_DEFAULT);
    }

    /** The writers of {@link #forBatches(Path, RowType, ParquetWriterOptions)}, one per part file. */
    public static BulkWriter.Factory<ArrowBatch> writerFactory(Path outputDir, RowType rowType,
            ParquetWriterOptions options) {
        return new ArrowParquetBulkWriter.Factory(outputDir, rowType, options);
    }

    /**
     * As {@link #forBatches(Path, RowType, ParquetWriterOptions)}, with the part files' writers
     * given, and at most {@code maxOpenPartitions} part files open per writer task.
     */
    public static FileSink<ArrowBatch> forBatches(Path outputDir, BulkWriter.Factory<ArrowBatch> writers,
            ParquetWriterOptions options, int maxOpenPartitions) {
        return partFiles(outputDir, writers, options, maxOpenPartitions).build();
    }

    /** A file sink whose part files are compacted, and the compaction that its pre-commit topology is. */
    public record Compacted(FileSink<ArrowBatch> files, SavepointCompaction compaction) {}

    /**
     * As {@link #forBatches(Path, RowType, ParquetWriterOptions)}, with the part files compacted:
     * those of a checkpoint are committed hidden ({@code .part-*.parquet}) and compacted into
     * {@code compacted-part-*.parquet} files ({@link ParquetFileCompactor}: their row groups copied
     * when they average at least 1/{@value #COPIED_ROW_GROUP_FRACTION} of the row-group size, every
     * record written again through the sink's own writer otherwise), which are
     * committed (visible) on the checkpoint after the compaction; the part files are deleted then.
     * A compaction takes the part files waiting in a bucket once they add up to the options'
     * target file size, or at the latest every {@code checkpointsPerCompaction} checkpoints, and
     * all of them at the barriers after a savepoint ({@link SavepointCompaction}).
     */
    public static Compacted compactedForBatches(Path outputDir, RowType rowType, ParquetWriterOptions options,
            int maxOpenPartitions, int checkpointsPerCompaction) {
        FileCompactStrategy strategy = FileCompactStrategy.Builder.newBuilder()
                .setSizeThreshold(options.targetFileSize())
                .enableCompactionOnCheckpoint(checkpointsPerCompaction)
                .setNumCompactThreads(COMPACTION_THREADS)
                .build();
        BulkWriter.Factory<ArrowBatch> writers = writerFactory(outputDir, rowType, options);
        ParquetFileCompactor compactor = new ParquetFileCompactor(rowType, writers,
                options.rowGroupSize() / COPIED_ROW_GROUP_FRACTION);
        FileSink<ArrowBatch> files = partFiles(outputDir, writers, options, maxOpenPartitions)
                .enableCompact(strategy, compactor)
                .build();
        return new Compacted(files, new SavepointCompaction(strategy, compactor, outputDir, writers));
    }

    private static FileSink.DefaultBulkFormatBuilder<ArrowBatch> partFiles(Path outputDir,
            BulkWriter.Factory<ArrowBatch> writers, ParquetWriterOptions options, int maxOpenPartitions) {
        PartitionBuckets buckets = PartitionBuckets.of(options, maxOpenPartitions);
        return FileSink.forBulkFormat(outputDir, writers)
                .withBucketAssigner(buckets.assigner())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix(PART_PREFIX)
                        .withPartSuffix(PART_SUFFIX)
                        .build())
                .withRollingPolicy(buckets.rolling())
                .withBucketCheckInterval(BUCKET_CHECK_MS);
    }
}
