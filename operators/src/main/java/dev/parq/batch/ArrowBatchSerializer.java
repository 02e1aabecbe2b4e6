package dev.parq.batch;

import java.io.IOException;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import dev.parq.types.SerializerTypeInfo;

/**
 * Passes {@link ArrowBatch}es by reference between the chained parse and sink operators.
 *
 * <p>parq always chains parse and sink (same parallelism, forward edge): a batch never leaves its
 * task, so it is never copied or serialized. If a configuration breaks the chain (for example
 * {@code pipeline.operator-chaining: false}), the job fails at the first batch with this
 * explanation instead of shipping vectors that the producer is about to refill.
 */
public final class ArrowBatchSerializer extends TypeSerializerSingleton<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    public static final ArrowBatchSerializer INSTANCE = new ArrowBatchSerializer();

    public static final TypeInformation<ArrowBatch> TYPE =
            new SerializerTypeInfo<>(ArrowBatch.class, INSTANCE);

    private static final String NOT_CHAINED =
            "Arrow batches pass only between chained operators: keep the parse and sink stages in one"
                    + " task (same parallelism, operator chaining on)";

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public ArrowBatch createInstance() {
        return null;
    }

    @Override
    public ArrowBatch copy(ArrowBatch from) {
        return from;
    }

    @Override
    public ArrowBatch copy(ArrowBatch from, ArrowBatch reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(ArrowBatch record, DataOutputView target) throws IOException {
        throw new IOException(NOT_CHAINED);
    }

    @Override
    public ArrowBatch deserialize(DataInputView source) throws IOException {
        throw new IOException(NOT_CHAINED);
    }

    @Override
    public ArrowBatch deserialize(ArrowBatch reuse, DataInputView source) throws IOException {
        throw new IOException(NOT_CHAINED);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        throw new IOException(NOT_CHAINED);
    }

    @Override
    public TypeSerializerSnapshot<ArrowBatch> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Serializer snapshot; the serializer has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ArrowBatch> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
