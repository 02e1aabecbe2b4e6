package dev.parq.source.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.source.NdjsonSource;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.WatchedInputs;
import dev.parq.source.split.FileSplit;

/**
 * The tailing enumerator on Flink's testing context, over real files that grow, rotate, shrink and
 * go: what it hands out, read back from the files, is every whole line once, and no partial line.
 */
class TailingEnumeratorTest {

    /** From their beginning, files of every age, a rotated file's last line after 5 s. */
    private static final Following FROM_BEGINNING = new Following(false, 0, 5000);

    @TempDir
    Path dir;

    private TestingSplitEnumeratorContext<FileSplit> context;
    /** Per file identity, the bytes read so far through the assigned splits, in assignment order. */
    private final Map<String, StringBuilder> read = new TreeMap<>();
    /** Per reader, how many of its assigned splits have been read back. */
    private final Map<Integer, Integer> assignedSeen = new TreeMap<>();

    @BeforeEach
    void readers() {
        context = new TestingSplitEnumeratorContext<>(2);
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
    }

    @Test
    void appendedLinesAreHandedOutOnceAndAPartialLineWaitsForItsEnd() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2}\n{\"se");
        TailingEnumerator enumerator = start("app.log*");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(log));
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(log), "nothing new: nothing handed out");
        append(log, "q\":3}\n{\"seq\":4}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":3}\n{\"seq\":4}\n", readOf(log));
    }

    @Test
    void aRenamedFileIsFollowedUnderItsNewNameAndTheNewFileReadFromItsStart() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log*");
        scan(enumerator);
        String oldKey = key(log);
        append(log, "{\"seq\":2}\n");
        Path rotated = Files.move(log, dir.resolve("app.log.1"));
        append(rotated, "{\"seq\":3}\n");
        Files.writeString(log, "{\"seq\":4}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":3}\n", read.get(oldKey).toString());
        assertEquals("{\"seq\":4}\n", readOf(log));
        assertEquals(List.of(rotated.toString()), pathsOfLastSplits(oldKey));
    }

    @Test
    void aTruncatedOrRewrittenFileIsReadAgainFromItsStart() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2}\n");
        TailingEnumerator enumerator = start("app.log");
        scan(enumerator);
        Files.writeString(log, "{\"seq\":3}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":3}\n", readOf(log));
        // Rewritten in place, grown past the old offset within one scan: told by its first bytes.
        Files.writeString(log, "{\"seq\":4}\n{\"seq\":5}\n{\"seq\":6}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":3}\n{\"seq\":4}\n{\"seq\":5}\n{\"seq\":6}\n", readOf(log));
        assertEquals(2, enumerator.metrics().truncations);
    }

    /**
     * A followed file replaced by a FIFO: not opened (that would block the scan until a writer
     * came), the rest goes on, and the file's lines read before are not read again.
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFileReplacedByAFifoIsNotOpenedAndTheOthersGoOn() throws Exception {
        Path log = dir.resolve("app.log");
        Path other = dir.resolve("other.log");
        TailingEnumerator enumerator = followingTwo(log, other);
        String oldKey = key(log);
        Files.delete(log);
        assertEquals(0, new ProcessBuilder("mkfifo", log.toString()).start().waitFor());
        append(other, "{\"seq\":3}\n");
        scan(enumerator);
        scan(enumerator);
        assertEquals("{\"seq\":1}\n", read.get(oldKey).toString());
        assertEquals("{\"seq\":2}\n{\"seq\":3}\n", readOf(other));
    }

    /**
     * A file named as the input and replaced by a directory of files: the files in the directory
     * are not taken for the file's next lines, the other input goes on, and the file's lines read
     * before are not read again. A directory named at the start is walked as always.
     */
    @Test
    void aFileReplacedByADirectoryIsNotWalkedAndTheOthersGoOn() throws Exception {
        Path log = dir.resolve("app.log");
        Path other = dir.resolve("other.log");
        TailingEnumerator enumerator = followingTwo(log, other);
        String oldKey = key(log);
        Files.delete(log);
        Files.createDirectory(log);
        Files.writeString(log.resolve("inside.log"), "{\"seq\":9}\n");
        append(other, "{\"seq\":3}\n");
        scan(enumerator);
        scan(enumerator);
        scan(enumerator);
        assertEquals("{\"seq\":1}\n", read.get(oldKey).toString());
        assertEquals("{\"seq\":2}\n{\"seq\":3}\n", readOf(other));
        assertEquals(Set.of(oldKey, key(other)), read.keySet(), "files read: " + read.keySet());
    }

    /** An enumerator that follows {@code log} and {@code other}, named as inputs, after its first scan of a line each. */
    private TailingEnumerator followingTwo(Path log, Path other) throws Exception {
        Files.writeString(log, "{\"seq\":1}\n");
        Files.writeString(other, "{\"seq\":2}\n");
        TailingEnumerator enumerator = new TailingEnumerator(context, new WatchedInputs(List.of(log.toString(),
                other.toString()), Duration.ofSeconds(1)), 1 << 20, FROM_BEGINNING, new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        return enumerator;
    }

    @Test
    void aFileNoLongerMatchedIsForgotten() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log*");
        scan(enumerator);
        assertEquals(1, enumerator.snapshotState(1).trackedFiles().size());
        Files.delete(log);
        scan(enumerator);
        assertEquals(List.of(), enumerator.snapshotState(2).trackedFiles());
    }

    /**
     * A directory read while a file in it is renamed may list the file under neither name: missing
     * from one scan, it is still followed, and found under its new name at the next.
     */
    @Test
    void aFileMissingFromOneListingIsFollowedOnWhenItIsListedAgain() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log*");
        scan(enumerator);
        enumerator.apply(List.of());
        Path rotated = Files.move(log, dir.resolve("app.log.1"));
        append(rotated, "{\"seq\":2}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(rotated));
        assertEquals(1, enumerator.metrics().rotations);
    }

    /** Listed but not readable at that moment (permissions, or gone between listing and reading). */
    @Test
    void aFileThatCannotBeReadForAWhileIsNotReadAgainFromItsStart() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log");
        scan(enumerator);
        InputFile listed = InputFile.of(log);
        List<FileScan> unreadable = new FileScanner(1 << 20).scan(
                List.of(new InputFile(dir.resolve("gone.log").toString(), 10, listed.fileKey())), Map.of(), Set.of());
        assertFalse(unreadable.get(0).readable());
        enumerator.apply(List.of(FileScan.unreadable(listed)));
        assertEquals(1, enumerator.snapshotState(1).trackedFiles().size());
        append(log, "{\"seq\":2}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(log));
    }

    /**
     * A job that ends interrupts the scanning thread: its cut-short reads say nothing of the files,
     * so the scan fails whole instead of calling them unreadable (which is a warning).
     */
    @Test
    void aScanOnAnInterruptedThreadFailsInsteadOfCallingFilesUnreadable() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedIOException.class,
                    () -> new FileScanner(1 << 20).scan(List.of(InputFile.of(log)), Map.of(), Set.of()));
        } finally {
            Thread.interrupted();
        }
    }

    /** A scan that ends after the enumerator was closed is not acted on. */
    @Test
    void aScanAfterCloseIsDropped() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log");
        long version = enumerator.basisVersion();
        List<FileScan> scans = new FileScanner(1 << 20).scan(List.of(InputFile.of(log)), Map.of(), Set.of());
        enumerator.close();
        enumerator.apply(new TailingEnumerator.Scanned(version, scans), null);
        assertEquals(0, enumerator.snapshotState(1).trackedFiles().size());
    }

    /** The worker thread may scan again before the last scan was acted on: that scan is stale. */
    @Test
    void aScanMadeBeforeTheLastOneWasActedOnIsDropped() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log");
        long version = enumerator.basisVersion();
        List<FileScan> first = new FileScanner(1 << 20).scan(List.of(InputFile.of(log)), Map.of(), Set.of());
        List<FileScan> second = new FileScanner(1 << 20).scan(List.of(InputFile.of(log)), Map.of(), Set.of());
        enumerator.apply(new TailingEnumerator.Scanned(version, first), null);
        enumerator.apply(new TailingEnumerator.Scanned(version, second), null);
        scan(enumerator);
        assertEquals("{\"seq\":1}\n", readOf(log));
        assertEquals(0, enumerator.metrics().truncations);
    }

    @Test
    void aRestoredEnumeratorGoesOnWhereItsCheckpointWas() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = start("app.log");
        scan(enumerator);
        EnumeratorState checkpoint = enumerator.snapshotState(1);
        SimpleVersionedSerializer<EnumeratorState> serializer = new EnumeratorStateSerializer();
        EnumeratorState restored = serializer.deserialize(serializer.getVersion(), serializer.serialize(checkpoint));
        assertEquals(checkpoint, restored);
        append(log, "{\"seq\":2}\n");
        // A new coordinator, as after a failover: the old one's scans are gone with it.
        readers();
        assignedSeen.clear();
        TailingEnumerator again = new TailingEnumerator(context, watched("app.log"), 1 << 20, FROM_BEGINNING, restored);
        again.start();
        scan(again);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(log));
    }

    @Test
    void aLargeFileFoundAtStartIsCutAtLineStartsForAllReaders() throws IOException {
        Path log = dir.resolve("big.log");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            lines.append("{\"seq\":").append(i).append(",\"pad\":\"").append("x".repeat(i % 13)).append("\"}\n");
        }
        Files.writeString(log, lines);
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("big.log"), 1000, FROM_BEGINNING,
                new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        assertEquals(lines.toString(), readOf(log));
        List<FileSplit> splits = allAssigned();
        assertTrue(splits.size() > 10, splits.size() + " splits");
        for (FileSplit split : splits) {
            assertTrue(split.start() == 0 || lines.charAt((int) split.start() - 1) == '\n', "split at " + split.start());
        }
        assertFalse(context.getSplitAssignments().get(0).getAssignedSplits().isEmpty());
        assertFalse(context.getSplitAssignments().get(1).getAssignedSplits().isEmpty());
    }

    /**
     * A scan that finds a split's worth of lines starts a backlog, told to Flink; it ends once none
     * waits and every reader has said it read as many splits as it was given: a word that left
     * before its splits arrived does not count, and a reader registered again (restored from a
     * checkpoint) is busy until it says so anew. Lines appended later, less than a split, start none.
     */
    @Test
    void aBacklogLastsUntilEveryReaderHasReadWhatItWasGiven() throws IOException {
        List<Boolean> told = twoReadersToldOfBacklogs();
        Path log = dir.resolve("big.log");
        Files.writeString(log, "{\"seq\":1,\"pad\":\"xxxxxxxxxxxxxxxxxxxx\"}\n".repeat(200));
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("big.log"), 1000, FROM_BEGINNING,
                new EnumeratorState(List.of()));
        enumerator.addReader(0);
        enumerator.start();
        scan(enumerator);
        assertEquals(List.of(true), told);
        assertTrue(enumerator.readingBacklog());
        int given0 = context.getSplitAssignments().get(0).getAssignedSplits().size();
        int given1 = context.getSplitAssignments().get(1).getAssignedSplits().size();
        enumerator.handleSourceEvent(1, new SplitsRead(0));
        assertEquals(List.of(true), told, "reader 1 said so before its splits arrived");
        enumerator.handleSourceEvent(1, new SplitsRead(given1));
        enumerator.addReader(1);
        enumerator.handleSourceEvent(0, new SplitsRead(given0));
        assertEquals(List.of(true), told, "reader 1 registered again, with splits of its own to read");
        enumerator.handleSourceEvent(1, new SplitsRead(0));
        assertEquals(List.of(true, false), told);
        append(log, "{\"seq\":2}\n".repeat(20));
        scan(enumerator);
        assertEquals(List.of(true, false), told, "200 bytes are no backlog");
        assertFalse(enumerator.readingBacklog());
    }

    /**
     * A job restarted in the middle of a backlog: its readers were restored with most of it, and
     * together they start a backlog, which ends once both have read theirs.
     */
    @Test
    void readersRestoredWithABacklogBetweenThemReadOne() throws IOException {
        List<Boolean> told = twoReadersToldOfBacklogs();
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("*.log"), 1000, FROM_BEGINNING,
                new EnumeratorState(List.of()));
        enumerator.addReader(0);
        enumerator.addReader(1);
        enumerator.start();
        enumerator.handleSourceEvent(0, new SplitsRestored(600));
        assertEquals(List.of(), told, "600 bytes are no backlog");
        enumerator.handleSourceEvent(1, new SplitsRestored(600));
        assertEquals(List.of(true), told);
        enumerator.handleSourceEvent(0, new SplitsRead(0));
        assertEquals(List.of(true), told, "reader 1 has not read its part");
        enumerator.handleSourceEvent(1, new SplitsRead(0));
        assertEquals(List.of(true, false), told);
        enumerator.handleSourceEvent(0, new SplitsRestored(600));
        assertEquals(List.of(true, false), told, "what reader 1 was restored with is read");
    }

    /** A context of two registered readers that records what Flink is told of backlogs, in order. */
    private List<Boolean> twoReadersToldOfBacklogs() {
        List<Boolean> told = new ArrayList<>();
        context = new TestingSplitEnumeratorContext<>(2) {
            @Override
            public void setIsProcessingBacklog(boolean backlog) {
                told.add(backlog);
            }
        };
        context.registerReader(0, "host-0");
        context.registerReader(1, "host-1");
        return told;
    }

    /** The first scan may come before the readers register: a large file's splits still go to all of them. */
    @Test
    void splitsWaitForTheirReaderToRegister() throws IOException {
        context = new TestingSplitEnumeratorContext<>(2);
        Path log = dir.resolve("big.log");
        Files.writeString(log, "{\"seq\":1,\"pad\":\"xxxxxxxxxxxxxxxxxxxx\"}\n".repeat(200));
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("big.log"), 1000, FROM_BEGINNING,
                new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        assertTrue(context.getSplitAssignments().isEmpty());
        context.registerReader(0, "host-0");
        enumerator.addReader(0);
        context.registerReader(1, "host-1");
        enumerator.addReader(1);
        assertFalse(context.getSplitAssignments().get(0).getAssignedSplits().isEmpty());
        assertFalse(context.getSplitAssignments().get(1).getAssignedSplits().isEmpty());
        assertEquals(0, enumerator.snapshotState(1).pendingSplits().size());
    }

    @Test
    void startingAtTheEndReadsOnlyWhatIsAppendedToTheFilesThereAtStart() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2}\n");
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("*.log"), 1 << 20,
                new Following(true, 0, 5000), new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        assertEquals("", readOf(log));
        append(log, "{\"seq\":3}\n");
        Path later = Files.writeString(dir.resolve("later.log"), "{\"seq\":4}\n");
        scan(enumerator);
        assertEquals("{\"seq\":3}\n", readOf(log));
        assertEquals("{\"seq\":4}\n", readOf(later), "a file found after the start is read whole");
    }

    @Test
    void filesNotModifiedForLongerThanIgnoreOlderAreNotStartedOn() throws IOException {
        Path old = Files.writeString(dir.resolve("old.log"), "{\"seq\":1}\n");
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - Duration.ofDays(2).toMillis()));
        Path recent = Files.writeString(dir.resolve("recent.log"), "{\"seq\":2}\n");
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("*.log"), 1 << 20,
                new Following(false, Duration.ofDays(1).toMillis(), 5000), new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        assertEquals("", readOf(old));
        assertEquals("{\"seq\":2}\n", readOf(recent));
        assertEquals(1, enumerator.snapshotState(1).trackedFiles().size());
    }

    @Test
    void aRotatedFileQuietForTheRotateWaitHasItsLastLineTakenWithoutALineFeed() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2");
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("app.log*"), 1 << 20,
                new Following(false, 0, 50), new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        Thread.sleep(100);
        scan(enumerator);
        assertEquals("{\"seq\":1}\n", readOf(log), "not rotated: the last line waits for its line feed");
        Path rotated = Files.move(log, dir.resolve("app.log.1"));
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2", readOf(rotated), "rotated and quiet for longer than the wait");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2", readOf(rotated), "once");
    }

    @Test
    void aRotatedFileStillGrowingKeepsItsPartialLine() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2");
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("app.log*"), 1 << 20,
                new Following(false, 0, 60_000), new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        Path rotated = Files.move(log, dir.resolve("app.log.1"));
        scan(enumerator);
        assertEquals("{\"seq\":1}\n", readOf(rotated));
        append(rotated, "}\n");
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(rotated));
    }

    @Test
    void aCopyMadeBeforeATruncationIsReadFromWhereTheOriginalWas() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"seq\":2}\n");
        TailingEnumerator enumerator = quick("app.log*", 60_000);
        scan(enumerator);
        append(log, "{\"seq\":3}\n");
        Path copy = Files.copy(log, dir.resolve("app.log.1"));
        Files.writeString(log, "{\"seq\":4}\n");
        scan(enumerator);
        assertEquals("{\"seq\":3}\n", readOf(copy), "only what the original had not given yet");
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":4}\n", readOf(log));
        assertEquals(1, enumerator.metrics().copies);
    }

    /** The scan falls between the copy and the truncation: the copy waits for the truncation. */
    @Test
    void aCopyFoundBeforeItsOriginalIsTruncatedWaitsForTheTruncation() throws IOException {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = quick("app.log*", 60_000);
        scan(enumerator);
        append(log, "{\"seq\":2}\n");
        Path copy = Files.copy(log, dir.resolve("app.log.1"));
        scan(enumerator);
        assertEquals("", readOf(copy), "parked");
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(log));
        // Written between the copy and the truncation: in neither file, the window copy-truncate loses.
        append(log, "{\"seq\":3}\n");
        Files.writeString(log, "{\"seq\":4}\n");
        scan(enumerator);
        assertEquals("", readOf(copy), "all of it was read from the original");
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n{\"seq\":4}\n", readOf(log));
        assertEquals(1, enumerator.metrics().copies);
    }

    @Test
    void aFileThatStartsLikeAFollowedOneButIsNoCopyIsReadWholeAfterTheWait() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n");
        TailingEnumerator enumerator = quick("app.log*", 50);
        scan(enumerator);
        Path twin = Files.writeString(dir.resolve("app.log.twin"), "{\"seq\":1}\n{\"seq\":2}\n");
        scan(enumerator);
        assertEquals("", readOf(twin));
        Thread.sleep(150);
        scan(enumerator);
        assertEquals("{\"seq\":1}\n{\"seq\":2}\n", readOf(twin));
        assertEquals(0, enumerator.metrics().copies);
    }

    @Test
    void aFileDeletedBeforeItWasReadIsCountedAsLostOnceACheckpointNoLongerNeedsIt() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "{\"seq\":1}\n{\"se");
        TailingEnumerator enumerator = quick("app.log*", 10);
        scan(enumerator);
        Files.delete(log);
        scan(enumerator);
        Thread.sleep(100);
        scan(enumerator);
        assertEquals(1, enumerator.snapshotState(7).releasedFiles().size(), "kept until a later checkpoint completes");
        assertEquals(0, enumerator.metrics().bytesLost);
        enumerator.notifyCheckpointComplete(7);
        scan(enumerator);
        assertEquals(4, enumerator.metrics().bytesLost, "the partial last line");
        assertEquals(List.of(), enumerator.snapshotState(8).releasedFiles());
        assertEquals(List.of(), enumerator.snapshotState(8).trackedFiles());
    }

    /** A new file of the identity of one that ended is that inode reused: never a copy, whatever its first bytes. */
    @Test
    void aReusedInodeIsNeverTakenForACopy() throws IOException {
        InputFile file = new InputFile(dir.resolve("app.log").toString(), 30, "dev:ino");
        TrackedFile ended = new TrackedFile("dev:ino", file.path(), 20, 20, 42, 20, 0, false);
        CopyRecognition copies = new CopyRecognition(List.of(new ReleasedFile(ended, 0, 0, true)), 1000);
        FileScan sameStart = new FileScan(file, 30, 0, 0, 30, 30, 7, 0, Map.of(20, 42L), List.of());
        assertTrue(copies.judge("dev:ino", sameStart, List.of(), 0) instanceof CopyRecognition.Independent);
        assertTrue(copies.judge("dev:other", sameStart, List.of(), 0) instanceof CopyRecognition.Adopt);
    }

    @Test
    void filesReadToTheirEndAndOlderThanIgnoreOlderAreForgotten() throws IOException {
        Path log = Files.writeString(dir.resolve("app.log"), "{\"seq\":1}\n");
        TailingEnumerator enumerator = new TailingEnumerator(context, watched("app.log"), 1 << 20,
                new Following(false, Duration.ofDays(1).toMillis(), 5000), new EnumeratorState(List.of()));
        enumerator.start();
        scan(enumerator);
        assertEquals(1, enumerator.snapshotState(1).trackedFiles().size());
        Files.setLastModifiedTime(log, FileTime.fromMillis(System.currentTimeMillis() - Duration.ofDays(2).toMillis()));
        scan(enumerator);
        scan(enumerator);
        assertEquals(List.of(), enumerator.snapshotState(2).trackedFiles());
        assertEquals(List.of(), enumerator.snapshotState(2).releasedFiles());
        assertEquals("{\"seq\":1}\n", readOf(log));
    }

    /** The state holds the files there are, not every file there ever was. */
    @Test
    void tenThousandFilesCreatedReadAndDeletedLeaveASmallState() throws Exception {
        TailingEnumerator enumerator = quick("*.log", 10);
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        long checkpoint = 0;
        int largest = 0;
        for (int round = 0; round < 10; round++) {
            // Inodes of deleted files are reused: what was read is told apart by round.
            read.clear();
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                files.add(Files.writeString(dir.resolve("f" + round + "-" + i + ".log"),
                        "{\"round\":" + round + ",\"i\":" + i + "}\n"));
            }
            scan(enumerator);
            largest = Math.max(largest, serializer.serialize(enumerator.snapshotState(++checkpoint)).length);
            enumerator.notifyCheckpointComplete(checkpoint);
            for (Path file : files) {
                assertEquals(Files.readString(file), readOf(file));
                Files.delete(file);
            }
            scan(enumerator);
        }
        Thread.sleep(50);
        enumerator.snapshotState(++checkpoint);
        enumerator.notifyCheckpointComplete(checkpoint);
        scan(enumerator);
        int size = serializer.serialize(enumerator.snapshotState(++checkpoint)).length;
        assertTrue(size < 64, size + " bytes of state with no file left");
        // At most the files of two rounds: those there, and those just deleted that a checkpoint still needs.
        assertTrue(largest < 2 * 1000 * 160, largest + " bytes of state with 1000 files");
        assertEquals(0, enumerator.metrics().bytesLost);
    }

    @Test
    void theSourceFollowsWatchedInputsWithoutEnd() {
        NdjsonSource source = NdjsonSource.builder(watched("app.log")).build();
        assertEquals(Boundedness.CONTINUOUS_UNBOUNDED, source.getBoundedness());
    }

    private WatchedInputs watched(String glob) {
        return new WatchedInputs(List.of(dir.resolve(glob).toString()), Duration.ofSeconds(1));
    }

    /** Scans every 10 ms; a rotated file's last line, and a file that starts like another, wait this long. */
    private TailingEnumerator quick(String glob, long rotateWaitMillis) {
        TailingEnumerator enumerator = new TailingEnumerator(context,
                new WatchedInputs(List.of(dir.resolve(glob).toString()), Duration.ofMillis(10)), 1 << 20,
                new Following(false, 0, rotateWaitMillis), new EnumeratorState(List.of()));
        enumerator.start();
        return enumerator;
    }

    private TailingEnumerator start(String glob) {
        TailingEnumerator enumerator = new TailingEnumerator(context, watched(glob), 1 << 20, FROM_BEGINNING,
                new EnumeratorState(List.of()));
        enumerator.start();
        return enumerator;
    }

    /** One scan, its result applied on the coordinator thread, and the new splits read back. */
    private void scan(TailingEnumerator enumerator) throws IOException {
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        List<FileSplit> fresh = new ArrayList<>();
        context.getSplitAssignments().forEach((reader, state) -> {
            List<FileSplit> splits = state.getAssignedSplits();
            fresh.addAll(splits.subList(assignedSeen.getOrDefault(reader, 0), splits.size()));
            assignedSeen.put(reader, splits.size());
        });
        fresh.sort(Comparator.comparing(FileSplit::fileKey).thenComparingLong(FileSplit::start));
        for (FileSplit split : fresh) {
            byte[] bytes = Files.readAllBytes(Path.of(split.path()));
            read.computeIfAbsent(split.fileKey(), k -> new StringBuilder())
                    .append(new String(Arrays.copyOfRange(bytes, (int) split.start(), (int) split.end()),
                            StandardCharsets.UTF_8));
        }
    }

    private List<FileSplit> allAssigned() {
        List<FileSplit> all = new ArrayList<>();
        context.getSplitAssignments().values().forEach(state -> all.addAll(state.getAssignedSplits()));
        all.sort(Comparator.comparing(FileSplit::fileKey).thenComparingLong(FileSplit::start));
        return all;
    }

    private List<String> pathsOfLastSplits(String key) {
        List<FileSplit> ofFile = allAssigned().stream().filter(s -> s.fileKey().equals(key)).toList();
        return List.of(ofFile.get(ofFile.size() - 1).path());
    }

    private String readOf(Path file) throws IOException {
        StringBuilder bytes = read.get(key(file));
        return bytes == null ? "" : bytes.toString();
    }

    private static String key(Path file) throws IOException {
        return InputFile.of(file).fileKey();
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.APPEND);
    }
}
