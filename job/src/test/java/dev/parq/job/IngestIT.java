package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import static dev.parq.job.NumberedLines.WAIT_SECONDS;
import static dev.parq.job.NumberedLines.append;
import static dev.parq.job.NumberedLines.committedRows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.job.mutation.Mutation;
import dev.parq.testing.DuckDb;

/**
 * {@code parq ingest} as its own process, on files that a writer appends to and rotates: lines
 * split over two writes, a rename rotation with lines written to the old file after it, a partial
 * last line completed later; stopped with SIGTERM (a savepoint) and with SIGKILL, started again with
 * the same command. What is committed holds every line exactly once, read by DuckDB.
 */
class IngestIT {

    private static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * How long the compaction test writes: 20 s, a minute in the long suite, or as
     * {@code -Dparq.it.compaction-seconds=N} says. Not less: in 10 s the checkpoints write hardly more
     * part files than the bound lets be visible, and a compaction of each on its own would pass.
     */
    private static final int COMPACTION_SECONDS = Integer.getInteger("parq.it.compaction-seconds", FaultsProfile.ON ? 60 : 12);
    /** A part file of a checkpoint, pending ({@code ..part-U-N.parquet.inprogress.V}) or moved for its compaction. */
    private static final Pattern PART_FILE = Pattern.compile("\\.+(part-[0-9a-f-]+-\\d+)\\.parquet.*");

    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();
    /** The defect the ingest processes run with, if any. */
    private Mutation mutation;
    /** How the ingest processes compact: every checkpoint, unless a test says otherwise. */
    private List<String> compaction = List.of("--compaction-interval", "1s");
    private String checkpointInterval = "1s";
    private long waitSeconds = WAIT_SECONDS;
    /** What the ingest processes are started under: e.g. another user. */
    private List<String> runAs = List.of();
    /** Every ingest process started, so that none outlives a test that failed. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    /**
     * A line written in two parts, a rename rotation with lines to the old file after it, a stop,
     * a kill: in the long suite, since the cases below (a writer that rotates and splits lines under
     * a kill, stops, rotations while stopped) cover each in every build.
     */
    @Test
    @FaultsProfile
    void followsRotatingLogsExactlyOnceThroughStopsAndKills() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        append(log, numbered.next(2000));

        Process ingest = start(logs, output);
        awaitRows(output, 2000, ingest);
        // A line written in two parts, then a rename rotation, lines to the old file after it, and a
        // new file whose last line is not complete yet.
        append(log, numbered.next(300) + "{\"seq\":" + numbered.nextSeq() + ",\"msg\":\"");
        Thread.sleep(300);
        append(log, "half\"}\n");
        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, numbered.next(200));
        append(log, numbered.next(100) + "{\"seq\":" + numbered.nextSeq());
        awaitRows(output, numbered.last() - 1, ingest);
        append(log, "}\n");
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        append(log, numbered.next(500));
        ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);
        append(log, numbered.next(500));
        Thread.sleep(1500);
        stop(ingest, "KILL", 137);

        append(rotated, numbered.next(250));
        append(log, numbered.next(250));
        ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
    }

    /**
     * A rename rotation while parq is stopped, two files whose first 4 KiB are the same, and a last
     * line without its line feed, which is not committed until it has one.
     */
    @Test
    void rotationWhileStoppedFilesAlikeAtTheStartAndAnUnfinishedLastLine() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path twin = logs.resolve("app.log.twin");
        String header = "{\"seq\":0,\"msg\":\"the same header line in both files\"}\n".repeat(120);
        append(log, header + numbered.next(500));
        append(twin, header + numbered.next(500));
        Path output = dir.resolve("out");

        Process ingest = start(logs, output);
        awaitRows(output, 240 + numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        Path rotated = Files.move(log, logs.resolve("app.log.1"));
        append(rotated, numbered.next(300));
        append(log, numbered.next(200) + "{\"seq\":" + numbered.nextSeq() + ",\"msg\":\"no line feed yet\"}");
        ingest = start(logs, output);
        awaitRows(output, 240 + numbered.last() - 1, ingest);
        Thread.sleep(2500);
        assertEquals(240 + numbered.last() - 1, committedRows(output), "the unfinished last line was committed");
        append(log, "\n");
        awaitRows(output, 240 + numbered.last(), ingest);
        stop(ingest, "TERM", 0);

        List<List<Object>> counts = DuckDb.query("SELECT count(*) FILTER (WHERE seq = 0), count(*) FILTER (WHERE seq > 0),"
                + " count(DISTINCT seq) FILTER (WHERE seq > 0), max(seq) FROM " + DuckDb.parquet(output));
        assertEquals(List.of(240L, (long) numbered.last(), (long) numbered.last(), (long) numbered.last()),
                counts.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "headers, rows, distinct, max");
    }

    /**
     * Copy-truncate rotation, quick and with a look at the files between the copy and the
     * truncation; a file rewritten longer than it was within one look; a file read, deleted, and a
     * new one made at once (often on the deleted one's inode).
     */
    @Test
    void copyTruncateRewritesAndReusedInodesExactlyOnce() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        append(log, numbered.next(1000));
        Process ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);

        append(log, numbered.next(200));
        Files.copy(log, logs.resolve("app.log.1"));
        Files.writeString(log, numbered.next(100), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        awaitRows(output, numbered.last(), ingest);
        append(log, numbered.next(300));
        Files.copy(log, logs.resolve("app.log.2"));
        Thread.sleep(1000);
        Files.writeString(log, numbered.next(100), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        awaitRows(output, numbered.last(), ingest);

        Files.writeString(log, numbered.next(600), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        awaitRows(output, numbered.last(), ingest);
        Files.delete(logs.resolve("app.log.1"));
        append(logs.resolve("app.log.3"), numbered.next(50));
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
        assertTrue(Files.readString(dir.resolve("stderr")).contains("is a copy of"), "a copy was recognised");
    }

    /**
     * A writer appends and rotates all along while ingest is killed at random moments: once, which
     * the twins below show is enough to catch a defect; three times in the long suite, for more
     * moments.
     */
    @Test
    void killedAtRandomWhileTheLogsRotateCommitsEveryLineOnce() throws Exception {
        numbered.assertEachCommittedOnce(killedWhileWriting(FaultsProfile.ON ? 3 : 1));
    }

    /**
     * Checkpoints every second for {@link #COMPACTION_SECONDS} while a writer appends about 300 KB/s
     * of lines (250 KB/s of Parquet),
     * compacted into 1 MiB files at least every 5 s, and a kill during a compaction half way: the
     * visible files are about one per target size and compaction interval, not one per reader and
     * checkpoint, and hold every line once.
     */
    @Test
    void checkpointsEverySecondAreCompactedIntoFewFilesEveryLineOnce() throws Exception {
        Compacted compacted = compactedWhileWriting(COMPACTION_SECONDS);
        numbered.assertEachCommittedOnce(compacted.output());
        List<Long> sizes;
        try (Stream<Path> files = Files.list(compacted.output())) {
            sizes = files.filter(NumberedLines::visibleParquet).map(f -> f.toFile().length()).sorted().toList();
        }
        long bytes = sizes.stream().mapToLong(Long::longValue).sum();
        long bound = (bytes >> 20) + (long) Math.ceil(compacted.seconds() / 5) + 2 + 3;
        System.out.printf("compaction: %.0f s, %d lines, %d checkpoints, %d part files, %d visible files of %d bytes"
                        + " (at most %d): %s%n", compacted.seconds(), numbered.last(),
                committedCheckpoint(compacted.output()), compacted.partFiles(), sizes.size(), bytes, bound, sizes);
        assertTrue(sizes.size() <= bound,
                sizes.size() + " files of " + bytes + " bytes in " + compacted.seconds() + " s: " + sizes);
    }

    /**
     * A stop with SIGTERM leaves every line read visible and no part file hidden, long before the
     * compaction interval is over; the next start resumes just after it: stopped twice, every line
     * is committed once.
     */
    @Test
    void aStopLeavesEveryLineReadVisibleAndTheNextStartResumesAfterIt() throws Exception {
        stoppedTwiceBeforeACompaction();
    }

    /** The test above fails when the stop compacts no more than any checkpoint: the rows stay hidden. */
    @Test
    @FaultsProfile
    void withoutTheCompactionAtTheStopTheRowsReadStayHidden() throws Exception {
        mutation = Mutation.NO_STOP_COMPACTION;
        AssertionError hidden = assertThrows(AssertionError.class, this::stoppedTwiceBeforeACompaction);
        assertTrue(hidden.getMessage().startsWith("part files left hidden"), hidden.getMessage());
    }

    /**
     * Twice: starts ingest, compacting at most every minute; once it has written its first part
     * file, a writer appends numbered lines (the first rotating every 5,000) for 3 s; 2 s after the writer is
     * done, stops ingest with SIGTERM, and checks that no part file is left and every line is
     * visible, once.
     */
    private void stoppedTwiceBeforeACompaction() throws Exception {
        compaction = List.of("--compaction-interval", "1min");
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        long seed = System.nanoTime();
        System.out.println("stoppedTwiceBeforeACompaction seed " + seed);
        Random random = new Random(seed);
        for (int round = 1; round <= 2; round++) {
            append(log, numbered.next(100));
            Process ingest = start(logs, output);
            awaitPartFile(output, ingest);
            // Rotated names count from 1 again for each writer: only the first rotates.
            NumberedLines.RotatingWriter writer = numbered.writeRotating(log, round == 1 ? 5000 : Integer.MAX_VALUE,
                    random);
            Thread.sleep(3000);
            writer.stop();
            Thread.sleep(2000);
            long stopping = System.nanoTime();
            stop(ingest, "TERM", 0);
            System.out.printf("stop %d, after line %d: %.1f s%n", round, numbered.last(),
                    (System.nanoTime() - stopping) / 1e9);
            assertEquals(Set.of(), partFiles(output), "part files left hidden");
            numbered.assertEachCommittedOnce(output);
        }
    }

    /**
     * Rotated files waiting at the start, more than a split of lines, compacting at most every ten
     * minutes: the backlog is visible with the checkpoint after its last line is read, and lines
     * appended after it wait, hidden, for the compaction interval as steady lines do.
     */
    @Test
    void aBacklogIsVisibleOnceReadAndLinesAfterItWaitForTheCompaction() throws Exception {
        backlogVisibleOnceRead();
    }

    /** The test above fails when the compaction does not notice the end of the backlog. */
    @Test
    @FaultsProfile
    void withoutTheCompactionAfterABacklogItStaysHidden() throws Exception {
        mutation = Mutation.NO_BACKLOG_COMPACTION;
        AssertionError hidden = assertThrows(AssertionError.class, this::backlogVisibleOnceRead);
        assertTrue(hidden.getMessage().startsWith("after 45 s 0 rows are committed"), hidden.getMessage());
    }

    /**
     * Checkpoints every ten minutes: the backlog is visible with the checkpoint parq asks for once it
     * is read, not the first periodic one; stopped, every line is committed once.
     */
    @Test
    void aBacklogIsCheckpointedOnceRead() throws Exception {
        backlogCheckpointedOnceRead();
    }

    /** The test above fails when no checkpoint is asked for after the backlog. */
    @Test
    @FaultsProfile
    void withoutTheCheckpointAfterABacklogItWaitsForThePeriodicOne() throws Exception {
        mutation = Mutation.NO_BACKLOG_CHECKPOINT;
        AssertionError hidden = assertThrows(AssertionError.class, this::backlogCheckpointedOnceRead);
        assertTrue(hidden.getMessage().startsWith("after 45 s 0 rows are committed"), hidden.getMessage());
    }

    private void backlogCheckpointedOnceRead() throws Exception {
        checkpointInterval = "10min";
        compaction = List.of("--compaction-interval", "10min");
        Path output = dir.resolve("out");
        Process ingest = startOnABacklog(output, "app.log.1", "app.log");
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
    }

    private void backlogVisibleOnceRead() throws Exception {
        compaction = List.of("--compaction-interval", "10min");
        Path output = dir.resolve("out");
        Process ingest = startOnABacklog(output, "app.log.2", "app.log.1", "app.log");
        Path log = dir.resolve("logs").resolve("app.log");
        long backlog = numbered.last();
        append(log, numbered.next(100));
        awaitPartFile(output, ingest);
        Thread.sleep(2000);
        assertEquals(backlog, NumberedLines.committedRows(output), "lines after the backlog, compacted at once");
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
    }

    /**
     * Starts ingest of {@code dir/logs} into {@code output} on 50,000 lines in each of {@code files}
     * (written oldest first, more than the 1 MB split it is given) and waits, at most 45 s, until
     * every line is committed.
     */
    private Process startOnABacklog(Path output, String... files) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        for (String file : files) {
            append(logs.resolve(file), numbered.next(50_000));
        }
        Process ingest = start(logs, output, "--split-size", "1mb");
        awaitRows(output, numbered.last(), ingest, 45);
        return ingest;
    }

    /** Waits until a checkpoint has written a part file into {@code output}: the ingest runs. */
    private void awaitPartFile(Path output, Process ingest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        while (!Files.isDirectory(output) || partFiles(output).isEmpty()) {
            assertTrue(ingest.isAlive(), "ingest ended: " + Files.readString(dir.resolve("stderr")));
            assertTrue(System.nanoTime() < deadline, "no part file in " + waitSeconds + " s");
            Thread.sleep(50);
        }
    }

    /**
     * State damaged or lost after a kill, each tried on the same killed ingest and then put back:
     * the newest checkpoints deleted; damaged (one cut in half, the other overwritten); the state
     * directory gone; the state, or a checkpoint, of this output given to another. Each start is
     * refused with one line that says what happened and what --force does, and leaves the output
     * as it was. Last, a checkpoint cut short by a crash, newer than any commit, is passed over with a
     * warning, and the ingest resumes from the one before it: every line once. Then, the newest
     * checkpoints deleted again and the start forced, the lines committed since come twice.
     */
    @Test
    void damagedOrLostStateIsRefusedAndACheckpointCutShortIsPassedOver() throws Exception {
        Killed killed = killedWhileWriting(dir.resolve("damaged"));
        newestCheckpointsDeleted(killed);
        newestCheckpointsDamaged(killed);
        stateDirectoryRemoved(killed);
        stateOfAnotherOutput(killed);
        checkpointCutShortIsPassedOver(killed);
        forcedPastTheCommitTheLinesSinceComeTwice(killed);
    }

    /**
     * The test above fails without the checks, each case of it on an ingest killed for it: resumed
     * as it finds its state, the ingest writes lines a second time, or into another output.
     */
    @Test
    @FaultsProfile
    void withoutTheResumeGuardDamagedOrLostStateWritesLinesTwice() throws Exception {
        mutation = Mutation.NO_RESUME_GUARD;
        List<KilledCase> cases = List.of(this::newestCheckpointsDeleted, this::newestCheckpointsDamaged,
                this::stateDirectoryRemoved, this::stateOfAnotherOutput);
        for (int i = 0; i < cases.size(); i++) {
            Killed killed = killedWhileWriting(dir.resolve("unguarded-" + i));
            KilledCase damage = cases.get(i);
            AssertionError unguarded = assertThrows(AssertionError.class, () -> damage.run(killed));
            System.out.println("unguarded case " + i + ": " + unguarded.getMessage());
            assertTrue(unguarded.getMessage().startsWith("not refused"), unguarded.getMessage());
        }
    }

    /** A case of damaged or lost state, tried on a killed ingest. */
    private interface KilledCase {
        void run(Killed killed) throws Exception;
    }

    /**
     * An ingest killed with SIGKILL while a writer appended, its last five checkpoints retained (in
     * {@code job}, by id), the newest checkpoint committed to its output, and the lines written.
     */
    private record Killed(Path logs, Path output, NumberedLines lines, Path job, List<Long> checkpoints,
            long committed) {

        Path state() {
            return output.resolve("_state");
        }

        Path checkpoint(long id) {
            return job.resolve("chk-" + id);
        }

        /** The retained checkpoints from {@code from} on, newest first. */
        List<Long> from(long from) {
            return checkpoints.stream().filter(id -> id >= from).sorted(Comparator.reverseOrder()).toList();
        }
    }

    /**
     * Ingest into {@code root/out}, five checkpoints retained, killed with SIGKILL after 4 s of a
     * writer's lines: each of its last checkpoints committed lines, so that one two behind the
     * newest commit is retained (resuming from the one just before it compacts again what was
     * committed, into the same file, and writes nothing twice).
     */
    private Killed killedWhileWriting(Path root) throws Exception {
        Path logs = Files.createDirectories(root.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = root.resolve("out");
        NumberedLines lines = new NumberedLines();
        long seed = System.nanoTime();
        long began = seed;
        System.out.println("killedWhileWriting seed " + seed);
        append(log, lines.next(100));
        Process ingest = start(logs, output, "-D", "execution.checkpointing.num-retained=5");
        awaitRows(output, lines.last(), ingest);
        NumberedLines.RotatingWriter writer = lines.writeRotating(log, Integer.MAX_VALUE, new Random(seed));
        Thread.sleep(4000);
        stop(ingest, "KILL", 137);
        writer.stop();
        long committed = committedCheckpoint(output);
        Path job;
        try (Stream<Path> jobs = Files.list(output.resolve("_state").resolve("checkpoints"))) {
            job = jobs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<Long> checkpoints;
        try (Stream<Path> retained = Files.list(job)) {
            // A checkpoint the kill cut short has its directory but no _metadata: not one retained
            // (the last case below makes one of its own).
            checkpoints = retained.filter(p -> Files.exists(p.resolve("_metadata")))
                    .map(p -> p.getFileName().toString()).filter(name -> name.matches("chk-\\d+"))
                    .map(name -> Long.parseLong(name.substring(4))).sorted().toList();
        }
        System.out.printf("killed after %.1f s: checkpoints %s retained, %d committed, %d lines%n",
                (System.nanoTime() - began) / 1e9, checkpoints, committed, lines.last());
        assertTrue(checkpoints.get(0) <= committed - 2, "no checkpoint two before the commit of " + committed
                + " is retained: " + checkpoints);
        return new Killed(logs, output, lines, job, checkpoints, committed);
    }

    /** The newest checkpoints gone: the newest left is older than what was committed. */
    private void newestCheckpointsDeleted(Killed killed) throws Exception {
        Path aside = Files.createDirectories(killed.output().resolveSibling("deleted"));
        List<Long> deleted = killed.from(killed.committed() - 1);
        for (long id : deleted) {
            Files.move(killed.checkpoint(id), aside.resolve("chk-" + id));
        }
        long left = killed.from(0).stream().filter(id -> !deleted.contains(id)).findFirst().orElseThrow();
        String err = refused(killed, killed.output());
        assertContains(err, killed.output() + " holds what checkpoint " + killed.committed() + " committed, but the"
                + " snapshots after checkpoint " + left + " are missing from " + killed.state() + " (deleted?)");
        assertContains(err, "pass --force to resume from checkpoint " + left + " and accept those lines twice");
        for (long id : deleted) {
            Files.move(aside.resolve("chk-" + id), killed.checkpoint(id));
        }
    }

    /**
     * The newest checkpoints damaged: the newest's {@code _metadata} cut in half, the others'
     * overwritten with random bytes.
     */
    private void newestCheckpointsDamaged(Killed killed) throws Exception {
        List<Long> damaged = killed.from(killed.committed() - 1);
        List<byte[]> kept = new ArrayList<>();
        List<FileTime> times = new ArrayList<>();
        Random random = new Random();
        for (long id : damaged) {
            Path metadata = killed.checkpoint(id).resolve("_metadata");
            kept.add(Files.readAllBytes(metadata));
            times.add(Files.getLastModifiedTime(metadata));
            try (FileChannel channel = FileChannel.open(metadata, StandardOpenOption.WRITE)) {
                if (id == damaged.get(0)) {
                    channel.truncate(channel.size() / 2);
                } else {
                    byte[] garbage = new byte[(int) channel.size()];
                    random.nextBytes(garbage);
                    channel.write(ByteBuffer.wrap(garbage), 0);
                }
            }
            Files.setLastModifiedTime(metadata, times.get(times.size() - 1));
        }
        String err = refused(killed, killed.output());
        assertContains(err, killed.output() + " holds what checkpoint " + killed.committed() + " committed, but "
                + killed.checkpoint(damaged.get(0)).resolve("_metadata") + " cannot be read (it ends too early: cut short)"
                + ", nor " + (damaged.size() - 1) + " more snapshot");
        assertContains(err, "and accept those lines twice");
        for (int i = 0; i < damaged.size(); i++) {
            Path metadata = killed.checkpoint(damaged.get(i)).resolve("_metadata");
            Files.write(metadata, kept.get(i));
            Files.setLastModifiedTime(metadata, times.get(i));
        }
    }

    /** The state directory removed: starting over would read every line again. */
    private void stateDirectoryRemoved(Killed killed) throws Exception {
        Path aside = killed.output().resolveSibling("state-removed");
        Files.move(killed.state(), aside);
        String err = refused(killed, killed.output());
        assertContains(err, killed.output() + " holds what checkpoint " + killed.committed() + " committed, but its"
                + " state directory " + killed.state() + " is gone (removed?): starting over would read the inputs"
                + " again and write again every line committed up to it");
        assertContains(err, "pass --force to start over and accept those lines twice");
        Files.move(aside, killed.state());
    }

    /** This output's state, then one of its checkpoints, given to another output. */
    private void stateOfAnotherOutput(Killed killed) throws Exception {
        Path other = killed.output().resolveSibling("other");
        String err = refused(killed, other, "--state", killed.state().toString());
        assertContains(err, "--state " + killed.state() + " holds the snapshots of " + killed.output() + ", not of "
                + other + ": resuming from them would pass over every line " + killed.output() + " holds");
        assertContains(err, "(--force does not override this)");
        Path checkpoint = killed.checkpoint(killed.from(0).get(0));
        err = refused(killed, other, "-D", "execution.state-recovery.path=" + checkpoint);
        assertContains(err, "the snapshot " + checkpoint + " is of " + killed.output() + " (its state directory "
                + killed.state() + "), not of " + other);
    }

    /**
     * A checkpoint newer than any commit whose {@code _metadata} a crash cut short (a copy of the
     * newest's first third, in the next checkpoint's directory): passed over with a warning, the
     * ingest resumes from the newest complete one and commits every line once.
     */
    private void checkpointCutShortIsPassedOver(Killed killed) throws Exception {
        long newest = killed.from(0).get(0);
        Path cut = Files.createDirectories(killed.checkpoint(newest + 1)).resolve("_metadata");
        byte[] metadata = Files.readAllBytes(killed.checkpoint(newest).resolve("_metadata"));
        Files.write(cut, Arrays.copyOf(metadata, metadata.length / 3));
        long errFrom = Files.size(dir.resolve("stderr"));
        long began = System.nanoTime();
        Process ingest = start(killed.logs(), killed.output());
        awaitRows(killed.output(), killed.lines().last(), ingest);
        killed.lines().assertEachCommittedOnce(killed.output());
        System.out.printf("resumed past the checkpoint cut short, every line once in %.1f s%n",
                (System.nanoTime() - began) / 1e9);
        stop(ingest, "KILL", 137);
        deleteRecursively(cut.getParent());
        String err = Files.readString(dir.resolve("stderr")).substring((int) errFrom);
        assertContains(err, "parq: warning: " + cut + " cannot be read (it ends too early: cut short): passed over;"
                + " a checkpoint cut short, nothing was committed from it");
        assertContains(err, "resuming from checkpoint " + newest + " (" + killed.checkpoint(newest) + ")");
    }

    /**
     * The newest checkpoints deleted, and the start forced: the lines committed since the one it
     * resumes from come twice, and none goes missing, though the part files of the compactions it
     * does again are gone (their compacted files are kept).
     */
    private void forcedPastTheCommitTheLinesSinceComeTwice(Killed killed) throws Exception {
        long committed = committedCheckpoint(killed.output());
        try (Stream<Path> checkpoints = Files.walk(killed.state().resolve("checkpoints"), 2)) {
            for (Path checkpoint : checkpoints.filter(p -> p.getFileName().toString().matches("chk-\\d+")).toList()) {
                if (Long.parseLong(checkpoint.getFileName().toString().substring(4)) >= committed - 1) {
                    deleteRecursively(checkpoint);
                }
            }
        }
        long errFrom = Files.size(dir.resolve("stderr"));
        long lines = killed.lines().last();
        Process forced = start(killed.logs(), killed.output(), "--force");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (committedRows(killed.output()) <= lines && System.nanoTime() < deadline) {
            assertTrue(forced.isAlive(), Files.readString(dir.resolve("stderr")));
            Thread.sleep(200);
        }
        stop(forced, "KILL", 137);
        assertTrue(committedRows(killed.output()) > lines, "forced, the lines committed since come again");
        assertEquals(lines, DuckDb.scalarLong("SELECT count(DISTINCT seq) FROM " + DuckDb.parquet(killed.output())),
                "forced, no line goes missing");
        String err = Files.readString(dir.resolve("stderr")).substring((int) errFrom);
        assertContains(err, "parq: warning: resuming from checkpoint ");
        assertContains(err, " though checkpoint " + committed + " was committed to " + killed.output()
                + ": the lines committed since are written again (--force)");
    }

    /**
     * Starts ingest into {@code output} on the killed ingest's logs, which must refuse: exit 2 with one
     * line on stderr, no stack trace, and nothing written to the killed output or to {@code output}.
     * Fails ("not refused") if it commits rows instead: more than there are lines, or any into another output.
     *
     * @return what it printed
     */
    private String refused(Killed killed, Path output, String... more) throws Exception {
        Map<String, String> before = contents(killed.output());
        Map<String, String> othersBefore = contents(output);
        long errFrom = Files.size(dir.resolve("stderr"));
        long rowsAtMost = output.equals(killed.output()) ? killed.lines().last() : 0;
        long began = System.nanoTime();
        Process ingest = start(killed.logs(), output, more);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ingest.waitFor(200, TimeUnit.MILLISECONDS)) {
            long rows = committedRows(output);
            if (rows > rowsAtMost || System.nanoTime() > deadline) {
                ingest.destroyForcibly().waitFor();
                throw new AssertionError("not refused: the ingest " + (rows > rowsAtMost ? "resumed and committed "
                        : "still runs after 60 s, and has committed ") + rows + " rows to " + output
                        + (rowsAtMost > 0 ? ", of " + rowsAtMost + " lines" : ""));
            }
        }
        String err = Files.readString(dir.resolve("stderr")).substring((int) errFrom);
        System.out.printf("refused in %.1f s: %s", (System.nanoTime() - began) / 1e9, err);
        assertEquals(2, ingest.exitValue(), err);
        assertEquals(1, err.strip().lines().count(), "one line: " + err);
        assertTrue(err.startsWith("parq: ") && !err.contains("Exception") && !err.contains("\tat "), err);
        assertEquals(before, contents(killed.output()), "the refused start changed " + killed.output());
        assertEquals(othersBefore, contents(output), "the refused start changed " + output);
        return err;
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), "no \"" + part + "\" in: " + text);
    }

    /** Each file and folder under {@code root} (none if it is not there), with its size and modification time. */
    private static Map<String, String> contents(Path root) throws IOException {
        Map<String, String> contents = new TreeMap<>();
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.toList()) {
                    contents.put(root.relativize(path).toString(), Files.isDirectory(path) ? "folder"
                            : Files.size(path) + " bytes, " + Files.getLastModifiedTime(path));
                }
            }
        }
        return contents;
    }

    /** With --unknown-fields keep, the committed rows hold each line's keys not in the schema with their text. */
    @Test
    void unknownKeysAreKeptWhenAsked() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            int seq = numbered.nextSeq();
            lines.append("{\"seq\":").append(seq).append(",\"extra\": {\"n\": ").append(seq).append("},\"a.b\":\"x\"}\n");
        }
        append(log, lines.toString());
        Process ingest = start(logs, output, "--unknown-fields", "keep");
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        List<List<Object>> kept = DuckDb.query("SELECT count(*) FILTER (WHERE map_keys(_unknown) = ['extra', 'a\\.b']"
                + " AND map_values(_unknown) = ['{\"n\": ' || seq || '}', '\"x\"']), count(*) FROM " + DuckDb.parquet(output));
        assertEquals(List.of((long) numbered.last(), (long) numbered.last()),
                kept.get(0).stream().map(v -> ((Number) v).longValue()).toList());
    }

    /**
     * With --partition-by day(ts), a day's folder gets its _SUCCESS once rows an hour (the commit
     * delay) past its end have been committed, with its row count; late rows, after a kill and a
     * restart, rewrite it. One of the two readers has no file, and must not hold the commit back.
     */
    @Test
    void aDayIsCommittedOnceEventTimePassesItsEndAndAgainForLateRows() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        Path day = output.resolve("ts_day=2024-03-01");
        append(log, timedLines(0, 100, "2024-03-01T12:00:00Z"));
        Process ingest = startWithSchema("seq BIGINT, ts TIMESTAMP_LTZ(3)", logs, output,
                "--partition-by", "day(ts)", "--partition-commit-delay", "1h");
        awaitPartitionedRows(output, 100, ingest);
        append(log, timedLines(100, 50, "2024-03-02T00:30:00+00:00"));
        awaitPartitionedRows(output, 150, ingest);
        Thread.sleep(PARTITION_SETTLE_MS);
        assertFalse(Files.exists(day.resolve("_SUCCESS")), "event time has not passed the day's end by an hour");

        append(log, timedLines(150, 50, "2024-03-02T03:30:00+02:00"));
        awaitPartitionedRows(output, 200, ingest);
        assertEquals(100, awaitSuccess(day, 100, ingest).get("rows").asLong());
        assertFalse(Files.exists(output.resolve("ts_day=2024-03-02").resolve("_SUCCESS")));

        stop(ingest, "KILL", 137);
        ingest = startWithSchema("seq BIGINT, ts TIMESTAMP_LTZ(3)", logs, output,
                "--partition-by", "day(ts)", "--partition-commit-delay", "1h");
        append(log, timedLines(200, 10, "2024-03-01T23:59:59.999Z"));
        awaitPartitionedRows(output, 210, ingest);
        JsonNode rewritten = awaitSuccess(day, 110, ingest);
        assertTrue(rewritten.get("files").asLong() >= 2, rewritten.toString());
        stop(ingest, "TERM", 0);
        assertEquals(List.of(List.of(110L, 100L)), DuckDb.query("SELECT count(*)::BIGINT, count(DISTINCT seq) FILTER"
                + " (WHERE seq < 100)::BIGINT FROM " + hive(output) + " WHERE ts_day = DATE '2024-03-01'").stream()
                .map(row -> row.stream().map(v -> ((Number) v).longValue()).toList()).toList());
    }

    private static final long PARTITION_SETTLE_MS = 8_000;

    private static String timedLines(int first, int count, String ts) {
        StringBuilder lines = new StringBuilder();
        for (int seq = first; seq < first + count; seq++) {
            lines.append("{\"seq\":").append(seq).append(",\"ts\":\"").append(ts).append("\"}\n");
        }
        return lines.toString();
    }

    private static String hive(Path output) {
        return "read_parquet(" + DuckDb.literal(output.resolve("**").resolve("[!._]*.parquet")) + ", hive_partitioning = true)";
    }

    private void awaitPartitionedRows(Path output, long rows, Process ingest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        long seen = -1;
        while (System.nanoTime() < deadline) {
            assertTrue(ingest.isAlive(), "ingest ended: " + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
            seen = Files.exists(output) && hasParquet(output) ? DuckDb.count(hive(output)) : 0;
            if (seen >= rows) {
                assertEquals(rows, seen);
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("committed rows: " + seen + ", expected " + rows);
    }

    /** Whether a visible Parquet file is in a partition of {@code output}; the state, which comes and goes, is not walked. */
    private static boolean hasParquet(Path output) throws IOException {
        List<Path> partitions;
        try (Stream<Path> top = Files.list(output)) {
            partitions = top.filter(f -> !f.getFileName().toString().startsWith("_")).toList();
        }
        for (Path partition : partitions) {
            try (Stream<Path> files = Files.walk(partition)) {
                if (files.anyMatch(f -> !f.getFileName().toString().startsWith(".") && f.toString().endsWith(".parquet"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private JsonNode awaitSuccess(Path partition, long rows, Process ingest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        JsonNode success = null;
        while (System.nanoTime() < deadline) {
            assertTrue(ingest.isAlive(), "ingest ended: " + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
            Path file = partition.resolve("_SUCCESS");
            if (Files.exists(file)) {
                success = JSON.readTree(file.toFile());
                if (success.get("rows").asLong() == rows) {
                    return success;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no _SUCCESS of " + rows + " rows in " + partition + ": " + success);
    }

    /**
     * A followed file whose read permission is taken away while lines are appended to it and to
     * another: one warning names it, the other goes on, and once it can be read again its lines
     * come, each once. The ingest runs as user nobody: root reads whatever the permissions say.
     */
    @Test
    void aFileThatCannotBeReadWaitsWithOneWarning() throws Exception {
        assertUnreadableFileWaits();
    }

    /** The test above fails when the warning is said at every scan. */
    @Test
    @FaultsProfile
    void withTheWarningAtEveryScanTheLogFillsWithIt() throws Exception {
        mutation = Mutation.UNREADABLE_TOLD_AT_EACH_SCAN;
        AssertionError told = assertThrows(AssertionError.class, this::assertUnreadableFileWaits);
        assertTrue(told.getMessage().startsWith("warnings of "), told.getMessage());
    }

    private void assertUnreadableFileWaits() throws Exception {
        assumeTrue("0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(),
                StandardCharsets.US_ASCII).strip()), "skipped: taking another user's identity needs root");
        runAs = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Files.setPosixFilePermissions(logs, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path log = logs.resolve("app.log");
        Path other = logs.resolve("app.log-other");
        append(log, numbered.next(500));
        append(other, numbered.next(500));
        for (Path file : List.of(log, other)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
        Path output = dir.resolve("out");
        Process ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);

        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("---------"));
        append(log, numbered.next(300));
        long unreadable = 300;
        append(other, numbered.next(200));
        awaitRows(output, numbered.last() - unreadable, ingest);
        Thread.sleep(2000);
        assertEquals(numbered.last() - unreadable, committedRows(output), "lines of a file nobody may read");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        append(log, numbered.next(100));
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        long warnings = err.lines().filter(line -> line.contains("cannot read " + log)).count();
        assertEquals(1, warnings, "warnings of " + log + ":\n" + err);
        assertTrue(err.contains(log + " can be read again"), err);
    }

    /**
     * Small files created, read and deleted, a thousand at a time (3,000, or 10,000 in the long
     * suite): every line once, and the savepoint afterwards small, since the state holds the files
     * there are, not those there were (each file kept would add some 100 bytes: 3,000 would not fit).
     */
    @Test
    void thousandsOfFilesComeAndGoAndTheStateStaysSmall() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path output = dir.resolve("out");
        append(logs.resolve("app.log"), numbered.next(1));
        Process ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest);
        for (int round = 0; round < (FaultsProfile.ON ? 10 : 3); round++) {
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                Path file = logs.resolve("app.log." + round + "-" + i);
                append(file, numbered.next(1));
                files.add(file);
            }
            awaitRows(output, numbered.last(), ingest);
            for (Path file : files) {
                Files.delete(file);
            }
        }
        // The files deleted are forgotten after the rotate wait (5 s) and a checkpoint after it.
        Thread.sleep(8000);
        stop(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(output);
        long metadata;
        try (Stream<Path> kept = Files.walk(output.resolve("_state").resolve("savepoints"))) {
            metadata = kept.filter(p -> p.getFileName().toString().equals("_metadata")).findFirst().orElseThrow()
                    .toFile().length();
        }
        assertTrue(metadata < 64 << 10, "the savepoint's state is " + metadata + " bytes");
    }

    /** With --on-error reject, bad lines go to _rejected/ once each, through a kill and a rotation. */
    @Test
    void rejectedLinesAreCommittedOnceThroughAKill() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        List<Integer> bad = new ArrayList<>();
        String[] halves = new String[2];
        for (int half = 0; half < 2; half++) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 15; i++) {
                text.append(numbered.next(20));
                bad.add(numbered.nextSeq());
                text.append("{\"seq\":").append(numbered.last()).append(",\"msg\":broken}\n");
            }
            halves[half] = text.toString();
        }
        append(log, halves[0]);
        Process ingest = start(logs, output, "--on-error", "reject");
        awaitRows(output, 300, ingest);
        stop(ingest, "KILL", 137);
        append(log, halves[1]);
        Files.move(log, logs.resolve("app.log.1"));
        ingest = start(logs, output, "--on-error", "reject");
        awaitRows(output, 600, ingest);
        stop(ingest, "TERM", 0);

        List<Integer> rejected = new ArrayList<>();
        try (Stream<Path> files = Files.list(output.resolve("_rejected"))) {
            for (Path file : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    String raw = JSON.readTree(line).get("line").asText();
                    rejected.add(JSON.readTree(raw.replace("broken", "0")).get("seq").asInt());
                }
            }
        }
        rejected.sort(Comparator.naturalOrder());
        assertEquals(bad, rejected);
        assertEquals(List.of(600L, 600L), DuckDb.query("SELECT count(*), count(DISTINCT seq) FROM "
                + DuckDb.parquet(output)).get(0).stream().map(v -> ((Number) v).longValue()).toList(), "rows, distinct");
    }

    /** The tests above fail when the parser keeps rows past a checkpoint barrier. */
    @Test
    @FaultsProfile
    void withoutTheBarrierFlushRowsGoMissing() throws Exception {
        mutation = Mutation.NO_BARRIER_FLUSH;
        waitSeconds = 20;
        assertThrows(AssertionError.class, () -> numbered.assertEachCommittedOnce(killedWhileWriting(1)));
    }

    /** The tests above fail when files are known by their path. */
    @Test
    @FaultsProfile
    void withFilesKnownByPathRotatedLinesComeTwice() throws Exception {
        mutation = Mutation.PATH_IDENTITY;
        waitSeconds = 20;
        assertThrows(AssertionError.class, () -> numbered.assertEachCommittedOnce(killedWhileWriting(1)));
    }

    /**
     * The kill during a compaction loses rows when a compaction deletes the part files it has read
     * at once, instead of once the compacted file is committed.
     */
    @Test
    @FaultsProfile
    void withPartFilesDeletedOnceReadAKillDuringACompactionLosesRows() throws Exception {
        mutation = Mutation.EARLY_PART_CLEANUP;
        waitSeconds = 35;
        AssertionError lost = assertThrows(AssertionError.class,
                () -> numbered.assertEachCommittedOnce(compactedWhileWriting(8).output()));
        assertTrue(lost.getMessage().contains("rows are committed, not " + numbered.last()), lost.getMessage());
    }

    /** An output, how long its writer wrote, and how many part files its checkpoints wrote. */
    private record Compacted(Path output, double seconds, int partFiles) {}

    /**
     * Runs ingest, checkpointed every second and compacting into 1 MiB files at least every 5 s, with
     * row groups of 64 KiB, so that the compactions copy the part files' row groups as they are
     * (the other ingest tests' small part files are written again);
     * once its first lines are visible, a writer appends numbered lines of 60 random letters (about
     * 300 KB/s) for {@code seconds}; half way (or at the first compaction after), kills it with
     * SIGKILL during a compaction and starts it again; once every line is committed, stops it with
     * SIGTERM.
     */
    private Compacted compactedWhileWriting(int seconds) throws Exception {
        compaction = List.of("--target-file-size", "1mb", "--compaction-interval", "5s",
                "-D", "parq.sink.row-group-size=64kb");
        Followed followed = followFirstLines("compactedWhileWriting", WAIT_SECONDS);
        Path output = followed.output();
        Process ingest = followed.ingest();
        long began = System.nanoTime();
        Set<String> parts = ConcurrentHashMap.newKeySet();
        AtomicBoolean looking = new AtomicBoolean(true);
        CompletableFuture<Void> partsSeen = CompletableFuture.runAsync(() -> {
            while (looking.get()) {
                try {
                    partFiles(output).forEach(parts::add);
                    Thread.sleep(100);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        NumberedLines.RotatingWriter writer = numbered.writeRotating(followed.log(), 100_000, followed.random(), 60);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds) / 2);
        awaitCompaction(output, ingest, followed.random());
        stop(ingest, "KILL", 137);
        ingest = start(followed.logs(), output);
        Thread.sleep(Math.max(0, TimeUnit.SECONDS.toMillis(seconds) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)));
        writer.stop();
        double wrote = (System.nanoTime() - began) / 1e9;
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        looking.set(false);
        partsSeen.get(WAIT_SECONDS, TimeUnit.SECONDS);
        return new Compacted(output, wrote, parts.size());
    }

    /** The part files in {@code output}, pending or waiting for compaction, each by its name in the output config's syntax. */
    private static Set<String> partFiles(Path output) throws IOException {
        try (Stream<Path> files = Files.list(output)) {
            return files.map(f -> PART_FILE.matcher(f.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> m.group(1))
                    .collect(Collectors.toSet());
        }
    }

    /** A log followed into an output by a running ingest, and the random source of a test's moments. */
    private record Followed(Path logs, Path log, Path output, Random random, Process ingest) {}

    /**
     * Starts ingest on a log of 100 lines and waits (up to {@code seconds}) until they are visible;
     * prints the seed of the test's random moments.
     */
    private Followed followFirstLines(String test, long seconds) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        long seed = System.nanoTime();
        System.out.println(test + " seed " + seed);
        append(log, numbered.next(100));
        Process ingest = start(logs, output);
        awaitRows(output, numbered.last(), ingest, seconds);
        return new Followed(logs, log, output, new Random(seed), ingest);
    }

    /** The newest checkpoint whose files were committed to {@code output}, as its commit record says. */
    private static long committedCheckpoint(Path output) throws IOException {
        return Long.parseLong(Files.readAllLines(output.resolve("_parq").resolve("committed")).stream()
                .filter(line -> line.startsWith("checkpoint=")).findFirst().orElseThrow().substring(11));
    }

    /**
     * Runs ingest while a writer appends numbered lines (some in two writes) and rotates by rename
     * every 700 lines; kills ingest with SIGKILL {@code kills} times, each at a random moment, and
     * starts it again; once the writer is done and every line committed, stops it with SIGTERM.
     */
    private Path killedWhileWriting(int kills) throws Exception {
        Followed followed = followFirstLines("killedWhileWriting", waitSeconds);
        Path output = followed.output();
        Process ingest = followed.ingest();
        Random random = followed.random();
        NumberedLines.RotatingWriter writer = numbered.writeRotating(followed.log(), 700, random);
        for (int kill = 0; kill < kills; kill++) {
            Thread.sleep(1500 + random.nextInt(3000));
            stop(ingest, "KILL", 137);
            Thread.sleep(random.nextInt(1000));
            ingest = start(followed.logs(), output);
        }
        Thread.sleep(2000);
        writer.stop();
        awaitRows(output, numbered.last(), ingest);
        stop(ingest, "TERM", 0);
        return output;
    }

    /**
     * Waits until a compaction starts, which its hidden file in progress shows, then 0.2 to 0.4 s
     * more: the compaction has read part files, or written its file, whose commit waits for the next
     * checkpoint to complete.
     */
    private void awaitCompaction(Path output, Process ingest, Random random) throws Exception {
        Set<String> before = compactedInProgress(output);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        while (before.containsAll(compactedInProgress(output))) {
            assertTrue(ingest.isAlive(), "ingest ended: " + Files.readString(dir.resolve("stderr")));
            assertTrue(System.nanoTime() < deadline, "no compaction started in " + waitSeconds + " s");
            Thread.sleep(5);
        }
        Thread.sleep(200 + random.nextInt(200));
    }

    /** The names of the compacted files being written (or left by a kill) in {@code output}. */
    private static Set<String> compactedInProgress(Path output) throws IOException {
        try (Stream<Path> files = Files.list(output)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.startsWith(".compacted-") && name.contains(".inprogress."))
                    .collect(Collectors.toSet());
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private Process start(Path logs, Path output, String... more) throws IOException {
        return startWithSchema(NumberedLines.SCHEMA, logs, output, more);
    }

    private Process startWithSchema(String schema, Path logs, Path output, String... more) throws IOException {
        List<String> command = new ArrayList<>(runAs);
        command.addAll(ParqJar.java("-Xmx256m"));
        if (mutation != null) {
            command.add(mutation.javaAgent());
        }
        command.addAll(List.of("-jar", JAR.toString(), "ingest",
                logs.resolve("app.log*").toString(), "-o", output.toString(), "--schema", schema,
                "--checkpoint-interval", checkpointInterval, "--discover-interval", "200ms", "-p", "2"));
        command.addAll(compaction);
        command.addAll(List.of(more));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr").toFile()));
        Process process = builder.start();
        started.add(process);
        return process;
    }

    /** Sends the signal and checks the exit code: 0 after a savepoint, 137 for SIGKILL. */
    private void stop(Process ingest, String signal, int exitCode) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(ingest.pid())).start();
        assertEquals(0, kill.waitFor());
        assertTrue(ingest.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "ingest did not stop on SIG" + signal);
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        assertEquals(exitCode, ingest.exitValue(), err);
        if (exitCode == 0) {
            assertTrue(err.strip().lines().reduce((a, b) -> b).orElse("").startsWith("parq: stopped with savepoint "), err);
        }
    }

    /** Waits until the committed Parquet files hold {@code rows} rows, while the ingest runs. */
    private void awaitRows(Path output, long rows, Process ingest) throws Exception {
        awaitRows(output, rows, ingest, waitSeconds);
    }

    /** As {@link #awaitRows(Path, long, Process)}, for at most {@code seconds}. */
    private void awaitRows(Path output, long rows, Process ingest, long seconds) throws Exception {
        NumberedLines.awaitRows(output, rows, seconds, () -> assertTrue(ingest.isAlive(),
                "ingest ended: " + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8)));
    }
}
