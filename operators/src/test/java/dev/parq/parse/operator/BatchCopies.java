package dev.parq.parse.operator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import dev.parq.batch.ArrowBatch;

/**
 * The output serializer of a parse operator's test harness, which copies every record it collects:
 * here into vectors of its own. The operator refills its vectors once the downstream call returns
 * (see {@link ArrowBatch}), so batches collected by reference would all show the rows of the last.
 */
final class BatchCopies extends TypeSerializerSingleton<ArrowBatch> implements AutoCloseable {
    private static final long serialVersionUID = 1L;

    private final transient BufferAllocator allocator = new RootAllocator();
    private final transient List<VectorSchemaRoot> copies = new ArrayList<>();

    @Override
    public ArrowBatch copy(ArrowBatch from) {
        VectorSchemaRoot root = VectorSchemaRoot.create(from.root().getSchema(), allocator);
        copies.add(root);
        root.allocateNew();
        VectorSchemaRootAppender.append(root, from.root());
        long[] rowOffsets = new long[from.rowCount()];
        for (int row = 0; row < rowOffsets.length; row++) {
            rowOffsets[row] = from.rowOffset(row);
        }
        return new ArrowBatch(root, from.file(), from.firstOffset(), from.endOffset(), rowOffsets);
    }

    @Override
    public ArrowBatch copy(ArrowBatch from, ArrowBatch reuse) {
        return copy(from);
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public ArrowBatch createInstance() {
        return null;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(ArrowBatch record, DataOutputView target) throws IOException {
        throw new UnsupportedOperationException("batch copies stay in memory");
    }

    @Override
    public ArrowBatch deserialize(DataInputView source) throws IOException {
        throw new UnsupportedOperationException("batch copies stay in memory");
    }

    @Override
    public ArrowBatch deserialize(ArrowBatch reuse, DataInputView source) throws IOException {
        throw new UnsupportedOperationException("batch copies stay in memory");
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        throw new UnsupportedOperationException("batch copies stay in memory");
    }

    @Override
    public TypeSerializerSnapshot<ArrowBatch> snapshotConfiguration() {
        throw new UnsupportedOperationException("batch copies are not checkpointed");
    }

    @Override
    public void close() {
        copies.forEach(VectorSchemaRoot::close);
        allocator.close();
    }
}
