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

    /**
     * 1: the pending splits; 2: also the tracked files of a tailing enumerator; 3: also their size,
     * when it last grew and whether they were renamed; 4: also the files that ended a short while ago;
     * 5: the splits in their version 3 (with the share of a stream); 6: the splits in their version 4
     * (with how much of a stream was read), and the objects seen; 7: also the lowest key their
     * count of older objects covers.
     */
    private static final int VERSION = 7;

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
            write(file, out);
        }
        out.writeInt(state.releasedFiles().size());
        for (ReleasedFile file : state.releasedFiles()) {
            write(file.file(), out);
            out.writeLong(file.releasedAtMillis());
            out.writeLong(file.afterCheckpoint());
            out.writeBoolean(file.gone());
        }
        ObjectsSeenSerializer.write(state.objects(), out);
        return out.getCopyOfBuffer();
    }

    private static void write(TrackedFile file, DataOutputSerializer out) throws IOException {
        out.writeUTF(file.fileKey());
        out.writeUTF(file.path());
        out.writeLong(file.issuedUpTo());
        out.writeInt(file.prefixLength());
        out.writeLong(file.prefixHash());
        out.writeLong(file.size());
        out.writeLong(file.grownAtMillis());
        out.writeBoolean(file.renamed());
    }

    @Override
    public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("unknown enumerator state version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        List<FileSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            splits.add(FileSplitSerializer.read(in, version == 1 ? 1 : version < 5 ? 2 : version < 6 ? 3 : 4));
        }
        List<TrackedFile> files = new ArrayList<>();
        if (version >= 2) {
            int tracked = in.readInt();
            for (int i = 0; i < tracked; i++) {
                files.add(readTracked(in, version));
            }
        }
        List<ReleasedFile> released = new ArrayList<>();
        if (version >= 4) {
            int ended = in.readInt();
            for (int i = 0; i < ended; i++) {
                released.add(new ReleasedFile(readTracked(in, version), in.readLong(), in.readLong(), in.readBoolean()));
            }
        }
        ObjectsSeen objects = version >= 6 ? ObjectsSeenSerializer.read(in, version >= 7) : ObjectsSeen.NONE;
        return new EnumeratorState(splits, files, released, objects);
    }

    private static TrackedFile readTracked(DataInputDeserializer in, int version) throws IOException {
        String key = in.readUTF();
        String path = in.readUTF();
        long issuedUpTo = in.readLong();
        int prefixLength = in.readInt();
        long prefixHash = in.readLong();
        return version >= 3
                ? new TrackedFile(key, path, issuedUpTo, prefixLength, prefixHash, in.readLong(), in.readLong(),
                        in.readBoolean())
                : new TrackedFile(key, path, issuedUpTo, prefixLength, prefixHash, issuedUpTo, 0, false);
    }
}
