package dev.parq.source.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.parq.source.enumerator.EnumeratorState;
import dev.parq.source.enumerator.EnumeratorStateSerializer;

class FileSplitSerializerTest {

    @Test
    void splitRoundTripsWithItsProgress() throws IOException {
        FileSplit split = new FileSplit("/data/ü.json@0", "/data/ü.json", "(dev=803,ino=12)", 0, 4096, 1000);
        FileSplitSerializer serializer = FileSplitSerializer.INSTANCE;
        assertEquals(split, serializer.deserialize(serializer.getVersion(), serializer.serialize(split)));
        FileSplit share = new FileSplit("/data/a.gz@0#1/3", "/data/a.gz", "", 0, 4096, 0, 0, 0, 3, 1);
        assertEquals(share, serializer.deserialize(serializer.getVersion(), serializer.serialize(share)));
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
