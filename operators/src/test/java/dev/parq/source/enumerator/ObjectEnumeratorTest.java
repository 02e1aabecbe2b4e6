package dev.parq.source.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.KeyFloor;
import dev.parq.source.enumerate.Listing;
import dev.parq.source.split.FileSplit;

/**
 * The object enumerator on Flink's testing context, over a listing the test sets: every object is
 * handed out once, through restarts from its checkpointed state; an object written again is read
 * again; the state keeps only the look-back window's objects, and an object that turns up below
 * it is counted, not read.
 */
class ObjectEnumeratorTest {

    private static final long LOOK_BACK = 600_000;
    private static final Following FOLLOWING = new Following(false, 0, 0, LOOK_BACK, false);

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

    /**
     * A listing that finds a split's worth of objects starts a backlog, told to Flink; it ends once
     * none waits and both readers have said they read as many objects as they were given; a
     * listing of less starts none.
     */
    @Test
    void aBacklogLastsUntilEveryReaderHasReadWhatItWasGiven() throws Exception {
        List<Boolean> told = new ArrayList<>();
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()), new TestingSplitEnumeratorContext<>(2) {
            @Override
            public void setIsProcessingBacklog(boolean backlog) {
                told.add(backlog);
            }
        }, 1000);
        for (int i = 0; i < 10; i++) {
            bucket.put("backlog-" + i + ".ndjson.gz", "v1", 1_000 + i);
        }
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertEquals(List.of(true), told, "ten objects of 100 bytes, a split of 1000");
        for (int i = 0; i < 5; i++) {
            enumerator.handleSplitRequest(0, "host-0");
            enumerator.handleSplitRequest(1, "host-1");
        }
        enumerator.handleSplitRequest(0, "host-0");
        enumerator.handleSourceEvent(0, new SplitsRead(5));
        enumerator.handleSourceEvent(1, new SplitsRead(4));
        assertEquals(List.of(true), told, "reader 1 still reads its last object");
        enumerator.handleSourceEvent(1, new SplitsRead(5));
        assertEquals(List.of(true, false), told);
        drain();
        assertEquals(10, handedOut.size());
        bucket.put("later.ndjson.gz", "v1", 5_000);
        list(enumerator);
        enumerator.handleSplitRequest(1, "host-1");
        assertEquals(List.of(true, false), told, "one object is no backlog");
        assertEquals(11, handedOut.size());
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
        int count = 30_000;
        ObjectEnumerator enumerator = start(FOLLOWING, new EnumeratorState(List.of()));
        // 30,000 objects (50 look-backs), one a second, named as shippers name them; listed every
        // 300 (five minutes, half the look-back: each listing walks every object there is).
        for (int i = 0; i < count; i++) {
            bucket.put(String.format("app/2026/12/05/%02d/part-host-%06d.ndjson.gz", i / 3600 % 24, i), "etag:" + i,
                    i * 1000L);
            if (i % 300 == 299 || i == count - 1) {
                list(enumerator);
                drain();
            }
        }
        assertEquals(count, handedOut.size());
        EnumeratorState state = enumerator.snapshotState(1);
        byte[] bytes = new EnumeratorStateSerializer().serialize(state);
        assertTrue(state.objects().recent().size() <= LOOK_BACK / 1000 + 1, "recent " + state.objects().recent().size());
        assertTrue(bytes.length < 64 << 10, "state of " + bytes.length + " bytes");
        System.out.printf("state after %,d objects, a %d s look-back: %d recent objects, %d bytes%n",
                count, LOOK_BACK / 1000, state.objects().recent().size(), bytes.length);
        ObjectEnumerator restored = start(FOLLOWING, roundTrip(state));
        list(restored);
        assertEquals(count, handedOut.size());
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

    /**
     * Twenty days of objects in day and hour folders, one every five minutes, listed every hour.
     * With keys in time order each discovery lists the root and the folders from the lowest key
     * within the look-back up, however many days lie below; listed whole, it lists every folder.
     * Through a restart from the checkpoint, every object is read once either way, and none is
     * taken for late. An object that lands later under an old folder is read only when the prefix
     * is listed whole; one that lands under a recent folder with a lower key is read either way.
     */
    @Test
    void withKeysInTimeOrderADiscoveryListsTheRecentFoldersWhateverTheHistory() throws Exception {
        History whole = followDays(false);
        History recent = followDays(true);
        System.out.printf("folders listed per discovery over 20 days: whole %d to %d, in time order %d to %d%n",
                whole.folders.get(1), whole.folders.get(whole.folders.size() - 1), recent.folders.get(1),
                recent.folders.stream().skip(1).mapToInt(Integer::intValue).max().orElseThrow());
        assertEquals(2 + 20 + 20 * 24, whole.folders.get(whole.folders.size() - 1));
        assertTrue(recent.folders.stream().skip(1).allMatch(n -> n <= 2 + 2 + 2), "folders " + recent.folders);
        assertEquals(List.of(true, true), List.of(whole.lateUnderAnOldFolderRead, whole.lateUnderARecentFolderRead));
        assertEquals(List.of(false, true), List.of(recent.lateUnderAnOldFolderRead, recent.lateUnderARecentFolderRead));
    }

    /**
     * The floor drops when an object with a lower key lands in a folder still listed: a folder the
     * listing passed over is listed again, and its old objects are neither read again nor taken for
     * late ones.
     */
    @Test
    void aFolderListedAgainAfterTheFloorDropsHoldsNoLateObjects() throws Exception {
        ObjectEnumerator enumerator = start(new Following(false, 0, 0, LOOK_BACK, true), new EnumeratorState(List.of()));
        bucket.put("app/06/a/x.ndjson", "v1", 1_000);
        bucket.put("app/06/m.ndjson", "v1", 2_000_000);
        list(enumerator);
        list(enumerator);
        assertEquals(3, bucket.folders, "app/06/a/ is passed over");
        bucket.put("app/06/0.ndjson", "v1", 2_000_000);
        list(enumerator);
        list(enumerator);
        assertEquals(4, bucket.folders, "app/06/a/ is listed again");
        assertEquals(Map.of("app/06/a/x.ndjson~v1", 1, "app/06/m.ndjson~v1", 1, "app/06/0.ndjson~v1", 1), handedOut);
        assertEquals(0, enumerator.metrics().lateObjects);
    }

    /** How many folders each discovery listed, and which objects that landed late were read. */
    private record History(List<Integer> folders, boolean lateUnderAnOldFolderRead,
            boolean lateUnderARecentFolderRead) {}

    private History followDays(boolean keysInTimeOrder) throws Exception {
        bucket.clear();
        handedOut.clear();
        Following following = new Following(false, 0, 0, LOOK_BACK, keysInTimeOrder);
        ObjectEnumerator enumerator = start(following, new EnumeratorState(List.of()));
        List<Integer> folders = new ArrayList<>();
        int count = 20 * 24 * 12;
        long every = 300_000;
        for (int i = 0; i < count; i++) {
            bucket.put(String.format("app/%03d/%02d/part-%05d.ndjson", i / 288, i / 12 % 24, i), "v1", i * every);
            if (i % 12 == 11) {
                list(enumerator);
                folders.add(bucket.folders);
                if (i == count / 2) {
                    enumerator = start(following, roundTrip(enumerator.snapshotState(1)));
                }
            }
        }
        enumerator = start(following, roundTrip(enumerator.snapshotState(2)));
        long now = count * every;
        bucket.put("app/003/05/part-late.ndjson", "v1", now);
        bucket.put("app/019/23/part-00000-late.ndjson", "v1", now);
        list(enumerator);
        list(enumerator);
        assertEquals(0, enumerator.metrics().lateObjects);
        for (int i = 0; i < count; i++) {
            assertEquals(1, handedOut.get(String.format("app/%03d/%02d/part-%05d.ndjson~v1", i / 288, i / 12 % 24, i)));
        }
        return new History(folders, handedOut.containsKey("app/003/05/part-late.ndjson~v1"),
                handedOut.containsKey("app/019/23/part-00000-late.ndjson~v1"));
    }

    @Test
    void startedAtTheEndOnlyObjectsThatAppearLaterAreRead() throws Exception {
        ObjectEnumerator enumerator = start(new Following(true, 0, 0, LOOK_BACK, false), new EnumeratorState(List.of()));
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
        return start(following, state, new TestingSplitEnumeratorContext<>(2), 1 << 20);
    }

    private ObjectEnumerator start(Following following, EnumeratorState state,
            TestingSplitEnumeratorContext<FileSplit> context, long splitSize) {
        this.context = context;
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
        ObjectEnumerator enumerator = new ObjectEnumerator(context, bucket, splitSize, following, state);
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

    /**
     * A listing the test sets: objects by path, in path order, each small enough to be one split,
     * listed as a store lists a prefix, a folder ('/') at a time; it counts the folders it listed.
     */
    private static final class Bucket implements InputDiscovery {
        private final TreeMap<String, InputFile> objects = new TreeMap<>();
        /** Folders listed by the last listing. */
        int folders;

        void put(String name, String version, long modified) {
            objects.put(name, new InputFile(name, 100, version, modified));
        }

        void clear() {
            objects.clear();
        }

        @Override
        public Listing currentObjects(KeyFloor floor) {
            List<InputFile> found = new ArrayList<>();
            folders = walk("", floor, found);
            return new Listing(found, folders);
        }

        private int walk(String folder, KeyFloor floor, List<InputFile> found) {
            int listed = 1;
            String key = objects.ceilingKey(folder);
            while (key != null && key.startsWith(folder)) {
                int slash = key.indexOf('/', folder.length());
                if (slash < 0) {
                    found.add(objects.get(key));
                    key = objects.higherKey(key);
                } else {
                    String child = key.substring(0, slash + 1);
                    if (!floor.passesOver(child)) {
                        listed += walk(child, floor, found);
                    }
                    key = objects.ceilingKey(child + Character.MAX_VALUE);
                }
            }
            return listed;
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
