package dev.parq.source.reader;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Ships a {@link LineChunk} when source and parser run in different tasks: the bytes are copied
 * into the record. Within one chained task a chunk is immutable and passed as it is.
 */
public final class LineChunkSerializer extends TypeSerializerSingleton<LineChunk> {
    private static final long serialVersionUID = 1L;

    public static final LineChunkSerializer INSTANCE = new LineChunkSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public LineChunk createInstance() {
        return new LineChunk("", 0, ByteBuffer.allocate(0));
    }

    @Override
    public LineChunk copy(LineChunk from) {
        return from;
    }

    @Override
    public LineChunk copy(LineChunk from, LineChunk reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(LineChunk chunk, DataOutputView target) throws IOException {
        target.writeUTF(chunk.file());
        target.writeLong(chunk.fileOffset());
        target.writeBoolean(chunk.decompressed());
        target.writeBoolean(chunk.damage() != null);
        if (chunk.damage() != null) {
            target.writeUTF(chunk.damage());
        }
        ByteBuffer bytes = chunk.buffer().duplicate();
        target.writeInt(bytes.remaining());
        byte[] block = new byte[Math.min(bytes.remaining(), 64 * 1024)];
        while (bytes.hasRemaining()) {
            int n = Math.min(block.length, bytes.remaining());
            bytes.get(block, 0, n);
            target.write(block, 0, n);
        }
    }

    @Override
    public LineChunk deserialize(DataInputView source) throws IOException {
        String file = source.readUTF();
        long offset = source.readLong();
        boolean decompressed = source.readBoolean();
        String damage = source.readBoolean() ? source.readUTF() : null;
        byte[] bytes = new byte[source.readInt()];
        source.readFully(bytes);
        return damage != null ? LineChunk.damaged(file, offset, damage)
                : new LineChunk(file, offset, ByteBuffer.wrap(bytes), decompressed);
    }

    @Override
    public LineChunk deserialize(LineChunk reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.writeUTF(source.readUTF());
        target.writeLong(source.readLong());
        target.writeBoolean(source.readBoolean());
        boolean damaged = source.readBoolean();
        target.writeBoolean(damaged);
        if (damaged) {
            target.writeUTF(source.readUTF());
        }
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
    }

    @Override
    public TypeSerializerSnapshot<LineChunk> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Serializer snapshot; the format has one version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<LineChunk> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
