package dev.parq.sink;

import dev.parq.batch.ArrowBatch;
import dev.parq.sink.partition.PartitionBuckets;
import dev.parq.sink.partition.PartitionOptions;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.FileSink;
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
        return forBatches(outputDir, writerFactory(rowType, options), options, PartitionOptions.MAX_OPEN_DEFAULT);
    }

    /** The writers of {@link #forBatches(Path, RowType, ParquetWriterOptions)}, one per part file. */
    public static BulkWriter.Factory<ArrowBatch> writerFactory(RowType rowType, ParquetWriterOptions options) {
        return new ArrowParquetBulkWriter.Factory(rowType, options);
    }

    /**
     * As {@link #forBatches(Path, RowType, ParquetWriterOptions)}, with the part files' writers
     * given, and at most {@code maxOpenPartitions} part files open per writer task.
     */
    public static FileSink<ArrowBatch> forBatches(Path outputDir, BulkWriter.Factory<ArrowBatch> writers,
            ParquetWriterOptions options, int maxOpenPartitions) {
        PartitionBuckets buckets = PartitionBuckets.of(options, maxOpenPartitions);
        return FileSink.forBulkFormat(outputDir, writers)
                .withBucketAssigner(buckets.assigner())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix(PART_PREFIX)
                        .withPartSuffix(PART_SUFFIX)
                        .build())
                .withRollingPolicy(buckets.rolling())
                .withBucketCheckInterval(BUCKET_CHECK_MS)
                .build();
    }
}
