package dev.parq.sink.compact;

import java.io.IOException;
import java.io.Serializable;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.FileCompactor;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequestTypeInfo;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.BulkBucketWriter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * The file sink's compaction (its pre-commit topology: a coordinator of one task, then as many
 * compactors as writers), with the same strategy, compactor, operator names and uids as
 * {@code FileSink} gives it, so that its state is the file sink's; except that everything read
 * before a stop with a savepoint is compacted and committed by that stop
 * ({@link SavepointCompactorOperator}).
 */
public final class SavepointCompaction implements Serializable {

    private static final long serialVersionUID = 1L;

    private final FileCompactStrategy strategy;
    private final FileCompactor compactor;
    private final String output;
    private final BulkWriter.Factory<?> writers;

    /**
     * The compaction of a file sink into {@code output} with {@code strategy} and {@code compactor},
     * whose part files {@code writers} write: those given to the sink's {@code enableCompact}.
     */
    public SavepointCompaction(FileCompactStrategy strategy, FileCompactor compactor, Path output,
            BulkWriter.Factory<?> writers) {
        this.strategy = strategy;
        this.compactor = compactor;
        this.output = output.toString();
        this.writers = writers;
    }

    /** The compaction of the committables {@code written}, which {@code committables} serializes. */
    public DataStream<CommittableMessage<FileSinkCommittable>> addTo(
            DataStream<CommittableMessage<FileSinkCommittable>> written, Committables committables) {
        FileCompactStrategy strategy = this.strategy;
        FileCompactor compactor = this.compactor;
        SingleOutputStreamOperator<CompactorRequest> requests = written.rebalance()
                .transform("CompactorCoordinator", new CompactorRequestTypeInfo(committables::serializer),
                        new Factory<CommittableMessage<FileSinkCommittable>, CompactorRequest>(
                                SavepointCompactCoordinator.class,
                                parameters -> new SavepointCompactCoordinator(parameters, strategy,
                                        committables.serializer())))
                .setParallelism(1)
                .uid("FileSinkCompactorCoordinator");
        SingleOutputStreamOperator<CommittableMessage<FileSinkCommittable>> compacted = requests
                .transform("CompactorOperator", written.getType(),
                        new Factory<CompactorRequest, CommittableMessage<FileSinkCommittable>>(
                                SavepointCompactorOperator.class,
                                parameters -> new SavepointCompactorOperator(parameters, strategy,
                                        committables.serializer(), compactor, bucketWriter())));
        compacted.getTransformation().setParallelism(written.getParallelism(), false);
        return compacted.uid("FileSinkCompactorOperator");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private BucketWriter<?, String> bucketWriter() throws IOException {
        Path base = new Path(output);
        return new BulkBucketWriter<>(base.getFileSystem().createRecoverableWriter(), (BulkWriter.Factory) writers);
    }

    /** The file sink's serializer of committables. */
    @FunctionalInterface
    public interface Committables extends Serializable {
        SimpleVersionedSerializer<FileSinkCommittable> serializer() throws IOException;
    }

    /** Creates an operator of the topology in its task. */
    @FunctionalInterface
    private interface Creator<OUT> extends Serializable {
        StreamOperator<OUT> create(StreamOperatorParameters<OUT> parameters) throws IOException;
    }

    private static final class Factory<IN, OUT> extends AbstractStreamOperatorFactory<OUT>
            implements OneInputStreamOperatorFactory<IN, OUT> {

        private static final long serialVersionUID = 1L;

        private final Class<? extends StreamOperator<OUT>> type;
        private final Creator<OUT> creator;

        Factory(Class<? extends StreamOperator<OUT>> type, Creator<OUT> creator) {
            this.type = type;
            this.creator = creator;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T extends StreamOperator<OUT>> T createStreamOperator(StreamOperatorParameters<OUT> parameters) {
            try {
                return (T) creator.create(parameters);
            } catch (IOException e) {
                throw new IllegalStateException("cannot create " + parameters.getStreamConfig().getOperatorName(), e);
            }
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
            return type;
        }
    }
}
