package dev.parq.sink;

import dev.parq.batch.ArrowBatch;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.table.types.logical.RowType;

/** The sink stage: Arrow batches into {@code part-*.parquet} files directly in one directory. */
public final class ParquetSinks {

    public static final String PART_PREFIX = "part";
    public static final String PART_SUFFIX = ".parquet";

    private ParquetSinks() {}

    /**
     * A file sink writing every batch into Parquet part files in {@code outputDir}, with no bucket
     * sub-directories. A part file is committed on each checkpoint, and at the end of a bounded job.
     */
    public static FileSink<ArrowBatch> forBatches(Path outputDir, RowType rowType, ParquetWriterOptions options) {
        return forBatches(outputDir, writerFactory(rowType, options));
    }

    /** The writers of {@link #forBatches(Path, RowType, ParquetWriterOptions)}, one per part file. */
    public static BulkWriter.Factory<ArrowBatch> writerFactory(RowType rowType, ParquetWriterOptions options) {
        return new ArrowParquetBulkWriter.Factory(rowType, options);
    }

    /** As {@link #forBatches(Path, RowType, ParquetWriterOptions)}, with the part files' writers given. */
    public static FileSink<ArrowBatch> forBatches(Path outputDir, BulkWriter.Factory<ArrowBatch> writers) {
        return FileSink.forBulkFormat(outputDir, writers)
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix(PART_PREFIX)
                        .withPartSuffix(PART_SUFFIX)
                        .build())
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .build();
    }
}
