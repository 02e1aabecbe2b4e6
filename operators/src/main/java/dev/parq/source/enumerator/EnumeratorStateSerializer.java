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

    /** 1: the pending splits; 2: also the tracked files of a tailing enumerator. */
    private static final int VERSION = 2;

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
        out.writeInt(state.trackedFiles().size());
        for (TrackedFile file : state.trackedFiles()) {
            out.writeUTF(file.fileKey());
            out.writeUTF(file.path());
            out.writeLong(file.issuedUpTo());
            out.writeInt(file.prefixLength());
            out.writeLong(file.prefixHash());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != 1 && version != VERSION) {
            throw new IOException("unknown enumerator state version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        List<FileSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            splits.add(FileSplitSerializer.read(in, version == 1 ? 1 : FileSplitSerializer.VERSION));
        }
        List<TrackedFile> files = new ArrayList<>();
        if (version >= 2) {
            int tracked = in.readInt();
            for (int i = 0; i < tracked; i++) {
                files.add(new TrackedFile(in.readUTF(), in.readUTF(), in.readLong(), in.readInt(), in.readLong()));
            }
        }
        return new EnumeratorState(splits, files);
    }
}
