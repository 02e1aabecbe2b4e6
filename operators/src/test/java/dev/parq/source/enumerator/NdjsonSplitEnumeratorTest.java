package dev.parq.source.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.source.NdjsonSource;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.InputFiles;
import dev.parq.source.split.FileSplit;

class NdjsonSplitEnumeratorTest {

    private static final FileSplit S0 = split(0, 100);
    private static final FileSplit S1 = split(100, 200);
    private static final FileSplit S2 = split(200, 250);

    @TempDir
    Path dir;

    private final TestingSplitEnumeratorContext<FileSplit> context = new TestingSplitEnumeratorContext<>(2);

    private static FileSplit split(long start, long end) {
        return new FileSplit("in.ndjson@" + start, "in.ndjson", "(dev=1,ino=2)", start, end);
    }

    private NdjsonSplitEnumerator enumerator(List<FileSplit> splits) {
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
        return new NdjsonSplitEnumerator(context, splits);
    }

    private List<FileSplit> assigned(int reader) {
        var state = context.getSplitAssignments().get(reader);
        return state == null ? List.of() : state.getAssignedSplits();
    }

    private boolean toldNoMoreSplits(int reader) {
        var state = context.getSplitAssignments().get(reader);
        return state != null && state.hasReceivedNoMoreSplitsSignal();
    }

    /** Work goes to whichever reader asks, one split at a time, so that a fast reader takes more. */
    @Test
    void eachRequestTakesTheNextSplitInPlannedOrder() {
        NdjsonSplitEnumerator enumerator = enumerator(List.of(S0, S1, S2));
        enumerator.handleSplitRequest(0, "host-0");
        enumerator.handleSplitRequest(1, "host-1");
        enumerator.handleSplitRequest(0, "host-0");
        assertEquals(List.of(S0, S2), assigned(0));
        assertEquals(List.of(S1), assigned(1));
        assertFalse(toldNoMoreSplits(0));
        assertFalse(toldNoMoreSplits(1));
    }

    /** The input is bounded: a reader that asks once the queue is empty is told there is no more. */
    @Test
    void aReaderAskingAfterTheLastSplitIsToldThereAreNoMore() {
        NdjsonSplitEnumerator enumerator = enumerator(List.of(S0));
        enumerator.handleSplitRequest(0, "host-0");
        enumerator.handleSplitRequest(1, "host-1");
        assertEquals(List.of(S0), assigned(0));
        assertFalse(toldNoMoreSplits(0), "reader 0 has not asked again yet");
        assertTrue(toldNoMoreSplits(1));
        enumerator.handleSplitRequest(0, "host-0");
        assertTrue(toldNoMoreSplits(0));
    }

    /** A request can outlive its reader (it failed meanwhile): its split stays for the readers that are there. */
    @Test
    void aRequestFromAReaderNotRegisteredIsIgnored() {
        NdjsonSplitEnumerator enumerator = enumerator(List.of(S0));
        enumerator.handleSplitRequest(7, null);
        assertTrue(context.getSplitAssignments().isEmpty());
        enumerator.handleSplitRequest(1, "host-1");
        assertEquals(List.of(S0), assigned(1));
    }

    /**
     * When a reader fails, Flink gives back the splits it was assigned since the last checkpoint: they are
     * handed out again (after the splits still queued), none lost, and none twice.
     */
    @Test
    void splitsGivenBackAfterAReaderFailedAreAssignedAgain() throws Exception {
        NdjsonSplitEnumerator enumerator = enumerator(List.of(S0, S1, S2));
        enumerator.handleSplitRequest(0, "host-0");
        enumerator.addSplitsBack(List.of(S0), 0);
        assertEquals(new EnumeratorState(List.of(S1, S2, S0)), enumerator.snapshotState(1));
        for (int request = 0; request < 4; request++) {
            enumerator.handleSplitRequest(1, "host-1");
        }
        assertEquals(List.of(S1, S2, S0), assigned(1));
        assertTrue(toldNoMoreSplits(1));
    }

    /**
     * The checkpoint holds the splits not yet assigned (assigned ones are in the readers' state); an
     * enumerator restored from it, through the source and its checkpoint serializer as Flink does,
     * hands out exactly those.
     */
    @Test
    void aRestoredEnumeratorHandsOutTheSplitsNotAssignedAtTheCheckpoint() throws Exception {
        NdjsonSplitEnumerator enumerator = enumerator(List.of(S0, S1, S2));
        enumerator.handleSplitRequest(0, "host-0");
        EnumeratorState checkpoint = enumerator.snapshotState(1);
        assertEquals(new EnumeratorState(List.of(S1, S2)), checkpoint);

        NdjsonSource source = NdjsonSource.builder(List.of(new InputFile("in.ndjson", 0, ""))).build();
        SimpleVersionedSerializer<EnumeratorState> serializer = source.getEnumeratorCheckpointSerializer();
        EnumeratorState restoredState = serializer.deserialize(serializer.getVersion(), serializer.serialize(checkpoint));
        TestingSplitEnumeratorContext<FileSplit> restoredContext = new TestingSplitEnumeratorContext<>(2);
        restoredContext.registerReader(1, "host-1");
        SplitEnumerator<FileSplit, EnumeratorState> restored = source.restoreEnumerator(restoredContext, restoredState);
        for (int request = 0; request < 3; request++) {
            restored.handleSplitRequest(1, "host-1");
        }
        var reader1 = restoredContext.getSplitAssignments().get(1);
        assertEquals(List.of(S1, S2), reader1.getAssignedSplits());
        assertTrue(reader1.hasReceivedNoMoreSplitsSignal());
    }

    /** The source's own enumerator: its inputs expanded and cut at line starts, every byte in one split. */
    @Test
    void theSourcesEnumeratorHandsOutSplitsCoveringEveryFileOnce() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            lines.append("{\"id\":").append(i).append(",\"pad\":\"").append("x".repeat(i % 7)).append("\"}\n");
        }
        Path a = Files.writeString(dir.resolve("a.ndjson"), lines, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("b.ndjson"), "", StandardCharsets.UTF_8);
        Path c = Files.writeString(dir.resolve("c.ndjson"), "{\"id\":1}", StandardCharsets.UTF_8);
        NdjsonSource source = NdjsonSource.builder(InputFiles.expand(List.of(dir.toString())))
                .splitSize(MemorySize.parse("100b"))
                .build();
        assertEquals(Boundedness.BOUNDED, source.getBoundedness());
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
        SplitEnumerator<FileSplit, EnumeratorState> enumerator = source.createEnumerator(context);
        for (int request = 0; request < 100 && !(toldNoMoreSplits(0) && toldNoMoreSplits(1)); request++) {
            enumerator.handleSplitRequest(request % 2, "host-" + request % 2);
        }
        assertTrue(toldNoMoreSplits(0) && toldNoMoreSplits(1), "the input is bounded");
        List<FileSplit> all = new ArrayList<>(assigned(0));
        all.addAll(assigned(1));
        assertEquals(List.of(new FileSplit(c + "@0", c.toString(), InputFile.of(c).fileKey(), 0, 8)),
                all.stream().filter(split -> !split.path().equals(a.toString())).toList(),
                "the empty file has no split, the one-line file one");

        List<FileSplit> ofA = all.stream().filter(split -> split.path().equals(a.toString()))
                .sorted(Comparator.comparingLong(FileSplit::start)).toList();
        assertTrue(ofA.size() > 4, "the split size cuts the file: " + ofA);
        byte[] bytes = Files.readAllBytes(a);
        long expectedStart = 0;
        for (FileSplit split : ofA) {
            assertEquals(expectedStart, split.start(), "the splits of a file follow each other: " + ofA);
            assertEquals('\n', bytes[(int) split.end() - 1], "a split ends at a line end: " + split);
            assertEquals(InputFile.of(a).fileKey(), split.fileKey());
            expectedStart = split.end();
        }
        assertEquals(bytes.length, expectedStart);
    }
}
