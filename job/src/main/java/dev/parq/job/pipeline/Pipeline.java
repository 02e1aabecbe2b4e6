package dev.parq.job.pipeline;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowBatchSerializer;
import dev.parq.parse.operator.OnError;
import dev.parq.parse.operator.ParseOperator;
import dev.parq.sink.ParquetSinks;
import dev.parq.sink.commit.PartitionCommits;
import dev.parq.sink.commit.RecordedFileSink;
import dev.parq.sink.partition.PartitionOperator;
import dev.parq.sink.tensor.TensorSink;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerator.CheckpointRequest;
import dev.parq.source.reader.LineChunk;

/**
 * The one wiring of every command: the mapped NDJSON source, the parser into Arrow batches, and the
 * command's sinks: Parquet files or a tensor for the batches, NDJSON files for the rejected lines.
 * Source, parser and writer chain into one task, so a slow writer holds the reader back.
 */
public final class Pipeline {

    public static final String REJECTED_DIR = "_rejected";

    private Pipeline() {}

    /** {@code convert}: batches into Parquet part files in the output, bad lines into {@code _rejected/}. */
    public static void convert(StreamExecutionEnvironment env, ConvertSettings settings) {
        convert(env, settings, UnaryOperator.identity());
    }

    /**
     * As {@link #convert(StreamExecutionEnvironment, ConvertSettings)}, with the part files' writers
     * passed through {@code writers} first: a decorator of the writer (one that measures it, or slows
     * it down to test backpressure) goes in here.
     */
    public static void convert(StreamExecutionEnvironment env, ConvertSettings settings,
            UnaryOperator<BulkWriter.Factory<ArrowBatch>> writers) {
        SingleOutputStreamOperator<ArrowBatch> batches = readAndParse(env, settings.reading());
        Partitioning partitioning = settings.partitioning();
        BulkWriter.Factory<ArrowBatch> parquet = ParquetSinks.writerFactory(settings.output(),
                partitioning.fileType(settings.reading().outputType()), settings.writerOptions());
        partitioned(batches, partitioning, false)
                .sinkTo(ParquetSinks.forBatches(settings.output(), writers.apply(parquet),
                        settings.writerOptions(), partitioning.maxOpen()))
                .name("write Parquet");
        writeRejected(batches, new org.apache.flink.core.fs.Path(settings.output(), REJECTED_DIR));
    }

    /**
     * {@code ingest}: as {@code convert}, from watched inputs, without end; part files and rejected
     * lines are committed on each checkpoint, and the part files compacted into files of about the
     * target file size, which are committed on a later one; once the source has read a backlog, it
     * asks {@code afterBacklog} for a checkpoint.
     */
    public static void ingest(StreamExecutionEnvironment env, IngestSettings settings, CheckpointRequest afterBacklog) {
        SingleOutputStreamOperator<ArrowBatch> batches = readAndParse(env, settings.reading().askingAfterBacklog(afterBacklog));
        org.apache.flink.core.fs.Path output = settings.output();
        Partitioning partitioning = settings.partitioning();
        PartitionCommits commits = partitioning.spec().filter(spec -> spec.timeLevel().isPresent())
                // Files are compacted and committed within checkpointsPerCompaction + 1 checkpoints of
                // the one they were written before.
                .map(spec -> new PartitionCommits(spec, settings.partitionCommitDelay().toMillis(), output,
                        settings.checkpointsPerCompaction() + 2))
                .orElse(null);
        ParquetSinks.Compacted files = ParquetSinks.compactedForBatches(output,
                partitioning.fileType(settings.reading().outputType()), settings.writerOptions(),
                partitioning.maxOpen(), settings.checkpointsPerCompaction());
        partitioned(batches, partitioning, true)
                .sinkTo(new RecordedFileSink<>(files.files(), files.compaction(), output, commits))
                .name("write Parquet")
                .uid("write-parquet");
        writeRejected(batches, new org.apache.flink.core.fs.Path(output, REJECTED_DIR));
    }

    /** {@code tensor}: batches into row segments of the array, bad lines (if rejected) beside it. */
    public static void tensor(StreamExecutionEnvironment env, TensorSettings settings) {
        SingleOutputStreamOperator<ArrowBatch> batches = readAndParse(env, settings.reading());
        batches.sinkTo(new TensorSink(settings.segmentsDir().toString(),
                        settings.reading().inputFiles().stream().map(InputFile::path).toList(),
                        settings.columns(), settings.dtype()))
                .name("write tensor rows");
        if (settings.reading().onError() == OnError.REJECT) {
            writeRejected(batches, flinkPath(settings.rejectedDir()));
        }
    }

    /**
     * The first two stages: the source and the parser, whose main output is Arrow batches and whose
     * {@link ParseOperator#REJECTED} side output is the bad lines. The runtime mode follows the
     * source: batch execution for a bounded one.
     */
    static SingleOutputStreamOperator<ArrowBatch> readAndParse(StreamExecutionEnvironment env, Reading reading) {
        env.setRuntimeMode(reading.source().getBoundedness() == Boundedness.BOUNDED
                ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING);
        env.getConfig().enableObjectReuse();
        // Fixed ids, so that a checkpoint or savepoint is restored into the same operators.
        DataStream<LineChunk> lines = env.fromSource(reading.source(), WatermarkStrategy.noWatermarks(), "read NDJSON")
                .uid("read-ndjson");
        return lines.transform("parse to Arrow", ArrowBatchSerializer.TYPE,
                        new ParseOperator(reading.schema(), reading.onError(), reading.unknownFields(), reading.batchRows()))
                .uid("parse-to-arrow");
    }

    /**
     * The batches split by partition, chained after the parser, when the output has partitions;
     * with {@code eventTime}, with the watermarks of the time partition's column.
     */
    private static DataStream<ArrowBatch> partitioned(DataStream<ArrowBatch> batches, Partitioning partitioning,
            boolean eventTime) {
        if (partitioning.spec().isEmpty()) {
            return batches;
        }
        return batches.transform("partition", ArrowBatchSerializer.TYPE,
                        new PartitionOperator(partitioning.spec().get(), eventTime))
                .uid("partition");
    }

    /** Bad lines as NDJSON records in {@code rejected-*.ndjson} files of {@code directory}. */
    private static void writeRejected(SingleOutputStreamOperator<ArrowBatch> batches,
            org.apache.flink.core.fs.Path directory) {
        FileSink<String> sink = FileSink.forRowFormat(directory, new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix("rejected")
                        .withPartSuffix(".ndjson")
                        .build())
                // Committed with the Parquet files on each checkpoint, not by size or time.
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .build();
        batches.getSideOutput(ParseOperator.REJECTED).sinkTo(sink).name("write rejected lines").uid("write-rejected");
    }

    private static org.apache.flink.core.fs.Path flinkPath(Path path) {
        return Storage.of(path);
    }
}
