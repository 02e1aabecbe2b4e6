package dev.parq.source.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.parq.source.enumerator.EnumeratorState;
import dev.parq.source.enumerator.EnumeratorStateSerializer;
import dev.parq.source.enumerator.ObjectsSeen;
import dev.parq.source.enumerator.SeenObject;

class FileSplitSerializerTest {

    @Test
    void splitRoundTripsWithItsProgress() throws IOException {
        FileSplit split = new FileSplit("/data/ü.json@0", "/data/ü.json", "(dev=803,ino=12)", 0, 4096, 1000);
        FileSplitSerializer serializer = FileSplitSerializer.INSTANCE;
        assertEquals(split, serializer.deserialize(serializer.getVersion(), serializer.serialize(split)));
        FileSplit share = new FileSplit("/data/a.gz@0#1/3", "/data/a.gz", "", 0, 4096, 0, 0, 0, 3, 1);
        assertEquals(share, serializer.deserialize(serializer.getVersion(), serializer.serialize(share)));
        FileSplit streamed = new FileSplit("s3a://b/a.gz@0/etag:1", "s3a://b/a.gz", "etag:1", 0, 4096).withStreamed(9000);
        assertEquals(streamed, serializer.deserialize(serializer.getVersion(), serializer.serialize(streamed)));
    }

    @Test
    void theObjectsSeenRoundTripWithTheirKeysSharingPrefixes() throws IOException {
        ObjectsSeen seen = new ObjectsSeen(5_000, List.of(
                new SeenObject("s3a://b/app/2026/12/05/13/part-1.ndjson", "etag:a", 4_000),
                new SeenObject("s3a://b/app/2026/12/05/13/part-2.ndjson.gz", "etag:b", 5_000),
                new SeenObject("s3a://b/app/2026/12/05/14/\uD83D\uDE00.ndjson", "len:3@5000", 5_000),
                new SeenObject("s3a://b/app/2026/12/05/14/\uD83D\uDE01.ndjson", "len:3@5000", 5_000)), 17, -42,
                "s3a://b/app/2026/12/05/13/part-1.ndjson");
        EnumeratorState state = new EnumeratorState(List.of(new FileSplit("a@0", "a", "etag:a", 0, 10)), List.of(),
                List.of(), seen);
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        EnumeratorState back = serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
        assertEquals(state.pendingSplits(), back.pendingSplits());
        assertEquals(Set.copyOf(seen.recent()), Set.copyOf(back.objects().recent()));
        assertEquals(List.of(5_000L, 17L, -42L), List.of(back.objects().newestMillis(), back.objects().olderCount(),
                back.objects().olderDigest()));
        assertEquals(seen.olderFrom(), back.objects().olderFrom());
    }

    /** A checkpoint of version 6 has no key floor: it is read as counting every key. */
    @Test
    void theObjectsSeenOfAVersion6CheckpointAreRead() throws IOException {
        ObjectsSeen seen = new ObjectsSeen(5_000, List.of(new SeenObject("s3a://b/a.ndjson", "etag:a", 4_000)), 3, 9, "");
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        byte[] current = serializer.serialize(new EnumeratorState(List.of(), List.of(), List.of(), seen));
        // Version 6 wrote the same but for the key floor, a string of two length bytes here, after
        // the counts of splits, tracked and ended files (4 bytes each) and three longs.
        int at = 3 * 4 + 3 * 8;
        byte[] version6 = new byte[current.length - 2];
        System.arraycopy(current, 0, version6, 0, at);
        System.arraycopy(current, at + 2, version6, at, current.length - at - 2);
        EnumeratorState back = serializer.deserialize(6, version6);
        assertEquals(seen, back.objects());
    }

    @Test
    void enumeratorStateRoundTrips() throws IOException {
        EnumeratorState state = new EnumeratorState(List.of(
                new FileSplit("a@0", "a", "", 0, 10),
                new FileSplit("b@64", "b", "(dev=1,ino=2)", 64, 128, 100),
                new FileSplit("c@0#0/2", "c", "", 0, 50, 0, 0, 0, 2, 0)));
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        assertEquals(state, serializer.deserialize(serializer.getVersion(), serializer.serialize(state)));
        assertEquals(new EnumeratorState(List.of()),
                serializer.deserialize(1, serializer.serialize(new EnumeratorState(List.of()))));
    }

    @Test
    void unknownVersionsAreRefused() {
        assertThrows(IOException.class, () -> FileSplitSerializer.INSTANCE.deserialize(99, new byte[0]));
        assertThrows(IOException.class, () -> new EnumeratorStateSerializer().deserialize(99, new byte[0]));
    }

    @Test
    void invalidRangesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FileSplit("x", "x", "", 10, 5));
        assertThrows(IllegalArgumentException.class, () -> new FileSplit("x", "x", "", 0, 5, 6));
    }
}
