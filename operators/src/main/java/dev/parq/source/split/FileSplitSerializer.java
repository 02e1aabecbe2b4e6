package dev.parq.source.split;

import java.io.IOException;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Versioned checkpoint form of a {@link FileSplit}. */
public final class FileSplitSerializer implements SimpleVersionedSerializer<FileSplit> {

    public static final FileSplitSerializer INSTANCE = new FileSplitSerializer();

    /** 1: path, identity and range; 2: also the hash of the file's first bytes; 3: also the share of a stream; 4: also how much of a stream was read. */
    public static final int VERSION = 4;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64 + split.path().length());
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public FileSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("unknown FileSplit serialization version " + version);
        }
        return read(new DataInputDeserializer(serialized), version);
    }

    /** Writes a split into a larger structure (the enumerator's state). */
    public static void write(FileSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeUTF(split.path());
        out.writeUTF(split.fileKey());
        out.writeLong(split.start());
        out.writeLong(split.end());
        out.writeLong(split.offset());
        out.writeInt(split.prefixLength());
        out.writeLong(split.prefixHash());
        out.writeInt(split.shares());
        out.writeInt(split.share());
        out.writeLong(split.streamed());
    }

    /** Reads a split written by {@link #write} in serialization {@code version}. */
    public static FileSplit read(DataInputView in, int version) throws IOException {
        String id = in.readUTF();
        String path = in.readUTF();
        String fileKey = in.readUTF();
        long start = in.readLong();
        long end = in.readLong();
        long offset = in.readLong();
        if (version < 2) {
            return new FileSplit(id, path, fileKey, start, end, offset);
        }
        int prefixLength = in.readInt();
        long prefixHash = in.readLong();
        if (version < 3) {
            return new FileSplit(id, path, fileKey, start, end, offset, prefixLength, prefixHash);
        }
        int shares = in.readInt();
        int share = in.readInt();
        long streamed = version < 4 ? 0 : in.readLong();
        return new FileSplit(id, path, fileKey, start, end, offset, prefixLength, prefixHash, shares, share, streamed);
    }
}
