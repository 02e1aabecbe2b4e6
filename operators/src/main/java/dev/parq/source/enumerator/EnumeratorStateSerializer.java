package dev.parq.source.enumerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import dev.parq.source.split.FileSplit;
import dev.parq.source.split.FileSplitSerializer;

/** Versioned checkpoint form of {@link EnumeratorState}. */
public final class EnumeratorStateSerializer implements SimpleVersionedSerializer<EnumeratorState> {

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(EnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(state.pendingSplits().size());
        for (FileSplit split : state.pendingSplits()) {
            FileSplitSerializer.write(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("unknown enumerator state version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        List<FileSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            splits.add(FileSplitSerializer.read(in));
        }
        return new EnumeratorState(splits);
    }
}
