package dev.parq.source.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.split.FileSplit;

/**
 * The object enumerator on Flink's testing context, over a listing the test sets: every object is
 * handed out once, through restarts from its checkpointed state; an object written again is read
 * again; the state keeps only the look-back window's objects, and an object that turns up below
 * it is counted, not read.
 */
class ObjectEnumeratorTest {

    private static final long LOOK_BACK = 600_000;
    private static final Following FOLLOWING = new Following(false, 0, 0, LOOK_BACK);

    private final Bucket bucket = new Bucket();
    private TestingSplitEnumeratorContext<FileSplit> context;
    /** Per object path and version, how many times a split of it was handed out. */
    private final Map<String, Integer> handedOut = new LinkedHashMap<>();

    @Test
    void everyObjectIsHandedOutOnceThroughARestartFromTheState() throws Exception {
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        bucket.put("a.ndjson", "v1", 1_000);
        bucket.put("b.ndjson.gz", "v1", 2_000);
        list(enumerator);
        bucket.put("c.ndjson", "v1", 3_000);
        list(enumerator);
        list(enumerator);
        EnumeratorState state = roundTrip(enumerator.snapshotState(1));
        ObjectEnumerator restored = start(FOLLOWING, state);
        bucket.put("d.ndjson", "v1", 4_000);
        list(restored);
        assertEquals(Map.of("a.ndjson~v1", 1, "b.ndjson.gz~v1", 1, "c.ndjson~v1", 1, "d.ndjson~v1", 1), handedOut);
    }

    @Test
    void anObjectWrittenAgainIsReadAgainWhole() throws Exception {
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        bucket.put("a.ndjson", "v1", 1_000);
        list(enumerator);
        bucket.put("a.ndjson", "v2", 5_000);
        list(enumerator);
        list(enumerator);
        assertEquals(Map.of("a.ndjson~v1", 1, "a.ndjson~v2", 1), handedOut);
        assertEquals(1, enumerator.metrics().objectsRewritten);
    }

    @Test
    void theStateHoldsTheLookBackWindowNotEveryObjectEverRead() throws Exception {
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        // 100,000 objects, one a second, named as shippers name them; listed every 100.
        for (int i = 0; i < 100_000; i++) {
            bucket.put(String.format("app/2026/12/05/%02d/part-host-%06d.ndjson.gz", i / 3600 % 24, i), "etag:" + i,
                    i * 1000L);
            if (i % 100 == 99) {
                list(enumerator);
                drain();
            }
        }
        assertEquals(100_000, handedOut.size());
        EnumeratorState state = enumerator.snapshotState(1);
        byte[] bytes = new EnumeratorStateSerializer().serialize(state);
        assertTrue(state.objects().recent().size() <= LOOK_BACK / 1000 + 1, "recent " + state.objects().recent().size());
        assertTrue(bytes.length < 64 << 10, "state of " + bytes.length + " bytes");
        System.out.printf("state after 100,000 objects, a %d s look-back: %d recent objects, %d bytes%n",
                LOOK_BACK / 1000, state.objects().recent().size(), bytes.length);
        ObjectEnumerator restored = start(FOLLOWING, roundTrip(state));
        list(restored);
        assertEquals(100_000, handedOut.size());
        assertTrue(handedOut.values().stream().allMatch(n -> n == 1));
    }

    @Test
    void anObjectThatTurnsUpBelowTheWindowIsCountedAndNotRead() throws Exception {
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        bucket.put("a.ndjson", "v1", 1_000);
        bucket.put("b.ndjson", "v1", 2_000_000);
        list(enumerator);
        // Late within the window: read.
        bucket.put("c.ndjson", "v1", 1_500_000);
        list(enumerator);
        // Below it (newest minus 600 s): counted, not read.
        bucket.put("d.ndjson", "v1", 1_000_000);
        list(enumerator);
        list(enumerator);
        assertEquals(Map.of("a.ndjson~v1", 1, "b.ndjson~v1", 1, "c.ndjson~v1", 1), handedOut);
        assertEquals(1, enumerator.metrics().lateObjects);
    }

    @Test
    void startedAtTheEndOnlyObjectsThatAppearLaterAreRead() throws Exception {
        ObjectEnumerator enumerator = start(new Following(true, 0, 0, LOOK_BACK), new EnumeratorState(List.of()));
        bucket.put("a.ndjson", "v1", 1_000);
        list(enumerator);
        bucket.put("b.ndjson", "v1", 2_000);
        list(enumerator);
        assertEquals(Map.of("b.ndjson~v1", 1), handedOut);
    }

    @Test
    void aReaderThatAskedWhenThereWasNothingGetsTheNextObject() throws Exception {
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        enumerator.handleSplitRequest(1, "host-1");
        bucket.put("a.ndjson", "v1", 1_000);
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertEquals(1, context.getSplitAssignments().get(1).getAssignedSplits().size());
    }

    private ObjectEnumerator start(Following following, EnumeratorState state) {
        context = new TestingSplitEnumeratorContext<>(2);
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
        ObjectEnumerator enumerator = new ObjectEnumerator(context, bucket, 1 << 20, following, state);
        enumerator.start();
        return enumerator;
    }

    /** One listing applied; then readers ask until nothing is left, and what they got is counted. */
    private void list(ObjectEnumerator enumerator) {
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        while (true) {
            int before = assignedCount();
            enumerator.handleSplitRequest(0, "host-0");
            if (assignedCount() == before) {
                break;
            }
        }
        drain();
    }

    private int assignedCount() {
        int count = 0;
        for (var state : context.getSplitAssignments().values()) {
            count += state.getAssignedSplits().size();
        }
        return count;
    }

    private void drain() {
        for (var state : context.getSplitAssignments().values()) {
            for (FileSplit split : state.getAssignedSplits()) {
                handedOut.merge(split.path() + "~" + split.fileKey(), 1, Integer::sum);
            }
            state.getAssignedSplits().clear();
        }
    }

    private static EnumeratorState roundTrip(EnumeratorState state) throws IOException {
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
    }

    /** A listing the test sets: objects by path, in path order, each small enough to be one split. */
    private static final class Bucket implements InputDiscovery {
        private final Map<String, InputFile> objects = new java.util.TreeMap<>();

        void put(String name, String version, long modified) {
            objects.put(name, new InputFile(name, 100, version, modified));
        }

        @Override
        public List<InputFile> initialFiles() {
            return currentFiles();
        }

        @Override
        public List<InputFile> currentFiles() {
            return new ArrayList<>(objects.values());
        }

        @Override
        public boolean watching() {
            return true;
        }

        @Override
        public boolean objects() {
            return true;
        }

        @Override
        public Duration discoverInterval() {
            return Duration.ofSeconds(1);
        }
    }
}
