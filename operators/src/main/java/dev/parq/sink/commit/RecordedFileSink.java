package dev.parq.sink.commit;

import java.io.IOException;
import java.util.Collection;

import javax.annotation.Nullable;

import org.apache.flink.api.common.SupportsConcurrentExecutionAttempts;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.writer.FileWriter;
import org.apache.flink.connector.file.sink.writer.FileWriterBucketState;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

import dev.parq.sink.compact.SavepointCompaction;

/**
 * A {@link FileSink} (whose constructor is private, so it is wrapped, not extended) followed by a
 * task that keeps the {@link CommitRecord} of the output: everything else is the file sink's, so
 * its writers, compaction (its pre-commit topology), committers and their state are exactly a file
 * sink's, with their uids; its compaction also compacts everything read before a stop with a
 * savepoint ({@link SavepointCompaction}), and its committer only keeps a file already in its place
 * ({@link KeepingCommitter}).
 */
public final class RecordedFileSink<IN> implements Sink<IN>, SupportsWriterState<IN, FileWriterBucketState>,
        SupportsWriterState.WithCompatibleState, SupportsCommitter<FileSinkCommittable>,
        SupportsPreCommitTopology<FileSinkCommittable, FileSinkCommittable>,
        SupportsPostCommitTopology<FileSinkCommittable>, SupportsConcurrentExecutionAttempts {

    private static final long serialVersionUID = 1L;

    private final FileSink<IN> files;
    private final SavepointCompaction compaction;
    private final String output;
    @Nullable
    private final PartitionCommits partitions;

    /**
     * The sink {@code files}, whose part files {@code compaction} compacts, writing into
     * {@code output}, with {@code partitions}' commits if not null.
     */
    public RecordedFileSink(FileSink<IN> files, SavepointCompaction compaction, Path output,
            @Nullable PartitionCommits partitions) {
        this.files = files;
        this.compaction = compaction;
        this.output = output.toString();
        this.partitions = partitions;
    }

    @Override
    public FileWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return files.createWriter(context);
    }

    @Override
    public FileWriter<IN> restoreWriter(WriterInitContext context, Collection<FileWriterBucketState> state)
            throws IOException {
        return files.restoreWriter(context, state);
    }

    @Override
    public SimpleVersionedSerializer<FileWriterBucketState> getWriterStateSerializer() {
        return files.getWriterStateSerializer();
    }

    @Override
    public Collection<String> getCompatibleWriterStateNames() {
        return files.getCompatibleWriterStateNames();
    }

    @Override
    public Committer<FileSinkCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return new KeepingCommitter(files.createCommitter(context));
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getCommittableSerializer() {
        return files.getCommittableSerializer();
    }

    /** The file sink's compaction, which also compacts at a stop; its operators' uids are the file sink's own. */
    @Override
    public DataStream<CommittableMessage<FileSinkCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<FileSinkCommittable>> written) {
        return compaction.addTo(written, files::getCommittableSerializer);
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getWriteResultSerializer() {
        return files.getWriteResultSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<FileSinkCommittable>> committed) {
        committed.global()
                .transform("record commits", Types.VOID, new CommitRecorder(new Path(output), partitions))
                .setParallelism(1)
                .setMaxParallelism(1)
                .uid("record-commits")
                .name("record commits");
    }
}
