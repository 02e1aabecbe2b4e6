package dev.parq.source.enumerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The checkpoint form of {@link ObjectsSeen}, part of the enumerator's state. Keys are written in
 * order, each as the length of the part it shares with the one before and the rest: the keys of a
 * prefix share most of their bytes ({@code s3a://bucket/app/2026/12/05/13/part-host-}), so the
 * state of a few thousand recent objects stays in tens of KiB.
 */
final class ObjectsSeenSerializer {

    private ObjectsSeenSerializer() {}

    static void write(ObjectsSeen seen, DataOutputView out) throws IOException {
        out.writeLong(seen.newestMillis());
        out.writeLong(seen.olderCount());
        out.writeLong(seen.olderDigest());
        out.writeUTF(seen.olderFrom());
        List<SeenObject> recent = new ArrayList<>(seen.recent());
        recent.sort(Comparator.comparing(SeenObject::key));
        out.writeInt(recent.size());
        String previous = "";
        for (SeenObject object : recent) {
            int shared = sharedLength(previous, object.key());
            out.writeInt(shared);
            out.writeUTF(object.key().substring(shared));
            out.writeUTF(object.version());
            out.writeLong(object.modifiedMillis());
            previous = object.key();
        }
    }

    /** Reads what {@link #write} wrote, or, {@code withOlderFrom} false, what it wrote before that key. */
    static ObjectsSeen read(DataInputView in, boolean withOlderFrom) throws IOException {
        long newest = in.readLong();
        long olderCount = in.readLong();
        long olderDigest = in.readLong();
        String olderFrom = withOlderFrom ? in.readUTF() : "";
        int count = in.readInt();
        List<SeenObject> recent = new ArrayList<>(count);
        String previous = "";
        for (int i = 0; i < count; i++) {
            int shared = in.readInt();
            if (shared < 0 || shared > previous.length()) {
                throw new IOException("corrupt object state: key " + i + " shares " + shared + " characters");
            }
            String key = previous.substring(0, shared) + in.readUTF();
            recent.add(new SeenObject(key, in.readUTF(), in.readLong()));
            previous = key;
        }
        return new ObjectsSeen(newest, recent, olderCount, olderDigest, olderFrom);
    }

    private static int sharedLength(String a, String b) {
        int limit = Math.min(a.length(), b.length());
        int i = 0;
        while (i < limit && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        // Not inside a surrogate pair: the rest is written as a string of its own.
        return i > 0 && Character.isHighSurrogate(a.charAt(i - 1)) ? i - 1 : i;
    }
}
