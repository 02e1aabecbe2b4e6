package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.parq.job.NumberedLines.WAIT_SECONDS;
import static dev.parq.job.NumberedLines.append;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.mutation.Mutation;
import dev.parq.testing.DuckDb;

/**
 * A disk that fills up under parq, a small tmpfs ({@link SmallDisk}). {@code convert} onto it fails
 * with one line naming the full place, and leaves nothing behind: not in the output, not in its
 * scratch space. {@code ingest} stops with one such line when its output or its state directory
 * fills, what it committed stays readable, and once there is room the same command goes on with
 * every line committed exactly once.
 */
class FullDiskIT {

    private static final Path JAR = ParqJar.JAR;
    /** About 90 bytes a line of letters that hardly compress: 9 MB of input, 7 MB of Parquet, for a 4 MiB disk. */
    private static final int CONVERT_LINES = 100_000;
    /** What a tmpfs allocates a file's bytes in. */
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();
    /** The defects the parq processes run with, if any. */
    private List<Mutation> mutations = List.of();
    /** Every parq process started, so that none outlives a test that failed. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void aConversionOntoAFullDiskSaysSoAndLeavesNothing() throws Exception {
        assertConversionFailsCleanly();
    }

    @Test
    void anIngestWhoseOutputFillsStopsAndGoesOnOnceThereIsRoom() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), "8m")) {
            Path output = disk.mount().resolve("out");
            // Its part files or its checkpoints, in _state beneath it, whichever is written first.
            assertIngestStopsAndGoesOn(disk, output, output.toString());
        }
    }

    @Test
    void anIngestWhoseStateDirectoryFillsStopsAndGoesOnOnceThereIsRoom() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), "8m")) {
            Path state = disk.mount().resolve("state");
            Path output = dir.resolve("out");
            assertIngestStopsAndGoesOn(disk, output, "checkpoints in " + state, "--state", state.toString());
        }
    }

    /**
     * With a restart strategy given, the same ingest process waits out a full disk: a writer goes
     * on writing (and rotating) while the disk is full for 10 s, and once it has room again every
     * line is committed exactly once, without a new start.
     */
    @Test
    @FaultsProfile
    void anIngestWithARestartStrategyWaitsForRoomAndGoesOn() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), "8m")) {
            Path output = disk.mount().resolve("out");
            Ingest ingest = startIngest(disk, output, "-Drestart-strategy.type=fixed-delay",
                    "-Drestart-strategy.fixed-delay.attempts=1000", "-Drestart-strategy.fixed-delay.delay=2s");
            NumberedLines.RotatingWriter writer = numbered.writeRotating(ingest.log(), 700, new Random(33));
            Thread.sleep(2000);
            disk.fill();
            Thread.sleep(10_000);
            assertTrue(ingest.process().isAlive(), "the ingest ended: " + stderr());
            disk.free();
            long freed = System.nanoTime();
            Thread.sleep(2000);
            writer.stop();
            awaitRows(disk.seen(output), numbered.last(), ingest.process());
            System.out.printf("FullDiskIT: every line committed %.1f s after the disk had room again%n",
                    (System.nanoTime() - freed) / 1e9);
            stop(ingest.process());
            numbered.assertEachCommittedOnce(disk.seen(output));
        }
    }

    @Test
    void aConversionWhoseManifestFindsTheDiskFullRemovesItsPartFiles() throws Exception {
        assertConversionFailsCleanlyAtTheManifest();
    }

    /** The manifest's check fails when the part files of a conversion that has no manifest stay. */
    @Test
    @FaultsProfile
    void withoutTheCleanupThePartFilesOfAConversionWithoutManifestStay() throws Exception {
        assertFailsWith(Mutation.NO_UNFINISHED_CLEANUP, this::assertConversionFailsCleanlyAtTheManifest,
                "left on the disk");
    }

    /** The conversion's check fails when a failed conversion leaves its in-progress files. */
    @Test
    @FaultsProfile
    void withoutTheCleanupOfUnfinishedFilesTheyStayOnTheFullDisk() throws Exception {
        assertFailsWith(Mutation.NO_UNFINISHED_CLEANUP, this::assertConversionFailsCleanly, "left on the disk");
    }

    /** The conversion's check fails when a full disk is told by the system's bare words. */
    @Test
    @FaultsProfile
    void withoutTheFullDiskNamedTheConversionsMessageDoesNotSayWhere() throws Exception {
        assertFailsWith(Mutation.UNNAMED_FULL_DISK, this::assertConversionFailsCleanly, "IOException: No space left");
    }

    /** The ingest's check fails when a checkpoint that cannot be written is told as Flink words it. */
    @Test
    @FaultsProfile
    void withoutTheFullDiskToldTheIngestsMessageIsFlinks() throws Exception {
        assertFailsWith(Mutation.UNTOLD_FULL_DISK, this::anIngestWhoseStateDirectoryFillsStopsAndGoesOnOnceThereIsRoom,
                "checkpoint tolerable failure threshold");
    }

    /**
     * The check of an ingest whose output fills fails when neither a part file nor a checkpoint that
     * cannot be written is told as a full disk (either alone is made up for by the other: the part
     * files and the checkpoints are on the same disk).
     */
    @Test
    @FaultsProfile
    void withoutTheFullDiskNamedNorToldTheIngestsMessageIsNotOfAFullDisk() throws Exception {
        assertFailsWith(List.of(Mutation.UNNAMED_FULL_DISK, Mutation.UNTOLD_FULL_DISK),
                this::anIngestWhoseOutputFillsStopsAndGoesOnOnceThereIsRoom, "Exception: ");
    }

    /** {@code check}, run with {@code defect} in parq, fails, and its message contains {@code expected}. */
    private void assertFailsWith(Mutation defect, Executable check, String expected) {
        assertFailsWith(List.of(defect), check, expected);
    }

    /** {@code check}, run with {@code defects} in parq, fails, and its message contains {@code expected}. */
    private void assertFailsWith(List<Mutation> defects, Executable check, String expected) {
        mutations = defects;
        AssertionError failed = assertThrows(AssertionError.class, check);
        System.out.println("FullDiskIT: with " + defects + ": " + failed.getMessage());
        assertTrue(failed.getMessage().contains(expected), failed.getMessage());
    }

    /**
     * Converts more than a 4 MiB disk holds onto it, with the embedded cluster's scratch space in
     * a directory of the test's: exit 1, one line naming the output, nothing left on the disk (the
     * output directory, which the run created, is gone with its hidden files) nor in the scratch space.
     */
    private void assertConversionFailsCleanly() throws Exception {
        Path input = dir.resolve("in.ndjson");
        append(input, numbered.next(CONVERT_LINES, 60, new Random(33)));
        assertConversionFailsCleanly(input, "4m", output -> "a Parquet file in " + output + ": ");
    }

    /**
     * Converts onto a disk that holds the conversion's part files to the byte but not its manifest:
     * it fails naming the manifest, and the part files, committed by then, are removed.
     */
    private void assertConversionFailsCleanlyAtTheManifest() throws Exception {
        Path input = dir.resolve("in.ndjson");
        append(input, numbered.next(20_000, 60, new Random(33)));
        ParqJar.Run sized = ParqJar.run(dir, "256m", "convert", input.toString(), "-o", dir.resolve("sized").toString(),
                "--schema", NumberedLines.SCHEMA, "--no-progress", "-p", "1");
        assertEquals(0, sized.exit(), sized.err());
        long pages = 0;
        try (Stream<Path> files = Files.list(dir.resolve("sized"))) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals("_SUCCESS")).toList()) {
                pages += (Files.size(file) + PAGE - 1) / PAGE;
            }
        }
        assertConversionFailsCleanly(input, Long.toString(pages * PAGE),
                output -> "the manifest " + output.resolve("_SUCCESS") + ": ");
    }

    /**
     * Converts {@code input} with one reader onto a disk of {@code size}, with the embedded
     * cluster's scratch space in a directory of the test's: exit 1, one line that says the disk is
     * full writing {@code written}, given the output, and nothing left on the disk (the output
     * directory, which the run created, is gone with its hidden files) nor in the scratch space.
     */
    private void assertConversionFailsCleanly(Path input, String size, Function<Path, String> written)
            throws Exception {
        Path scratch = Files.createDirectories(dir.resolve("tmp"));
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), size)) {
            Path output = disk.mount().resolve("out");
            ProcessBuilder convert = new ProcessBuilder(disk.inside(parq("convert", input.toString(), "-o",
                    output.toString(), "--schema", NumberedLines.SCHEMA, "--no-progress", "-p", "1")));
            convert.environment().put("TMPDIR", scratch.toString());
            Process process = start(convert);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the conversion did not end");
            String err = stderr();
            assertEquals(1, process.exitValue(), err);
            assertOneLine(err, "parq: no space left on device writing " + written.apply(output));
            try (Stream<Path> files = Files.walk(disk.seen(disk.mount()))) {
                assertEquals(List.of(), files.skip(1).map(Path::getFileName).map(Path::toString).toList(),
                        "left on the disk");
            }
            try (Stream<Path> files = Files.list(scratch)) {
                assertEquals(List.of(), files.toList(), "left in the scratch space (TMPDIR)");
            }
        }
    }

    /**
     * Runs ingest into {@code output} (the disk's, or one beside it with {@code more} putting the
     * state on the disk) until its first lines are committed, then fills the disk and writes more
     * lines: the ingest stops, exit 1, with one line that says the disk is full, naming {@code full}
     * (what was written there, and where), and what it committed
     * is readable, each line at most once. Once the disk has room, the same command commits every
     * line, and more written meanwhile, exactly once.
     */
    private void assertIngestStopsAndGoesOn(SmallDisk disk, Path output, String full, String... more)
            throws Exception {
        Path seenOutput = disk.seen(output);
        Ingest started = startIngest(disk, output, more);
        Path log = started.log();
        Process ingest = started.process();
        disk.fill();
        long filled = System.nanoTime();
        append(log, numbered.next(2000));
        assertTrue(ingest.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the ingest went on with its disk full");
        String err = stderr();
        System.out.printf("FullDiskIT: the ingest stopped %.1f s after its disk was full: %s%n",
                (System.nanoTime() - filled) / 1e9, err.strip().lines().reduce((a, b) -> b).orElse(""));
        assertEquals(1, ingest.exitValue(), err);
        String failure = err.substring(err.indexOf('\n') + 1);
        assertOneLine(failure, "parq: no space left on device writing ");
        assertTrue(failure.contains(full), "not " + full + ": " + err);
        long committed = NumberedLines.committedRows(seenOutput);
        assertTrue(committed >= 2000, committed + " rows");
        assertEquals(committed, DuckDb.scalarLong("SELECT count(DISTINCT seq) FROM " + DuckDb.parquet(seenOutput)),
                "lines committed twice");

        disk.free();
        ingest = start(new ProcessBuilder(disk.inside(started.command())));
        append(log, numbered.next(500));
        awaitRows(seenOutput, numbered.last(), ingest);
        stop(ingest);
        numbered.assertEachCommittedOnce(seenOutput);
    }

    /** A running ingest, the command that started it, and the log it follows. */
    private record Ingest(Process process, List<String> command, Path log) {}

    /**
     * Starts ingest, in {@code disk}'s namespace, on a log of 2000 lines into {@code output}, with
     * {@code more} options, and waits until they are committed.
     */
    private Ingest startIngest(SmallDisk disk, Path output, String... more) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        append(log, numbered.next(2000));
        List<String> command = parq("ingest", logs.resolve("app.log*").toString(), "-o", output.toString(),
                "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s", "--discover-interval", "200ms",
                "--compaction-interval", "1s", "-p", "2");
        command.addAll(List.of(more));
        Process ingest = start(new ProcessBuilder(disk.inside(command)));
        awaitRows(disk.seen(output), 2000, ingest);
        return new Ingest(ingest, command, log);
    }

    /** Stops {@code ingest} with SIGTERM, which takes a savepoint, and checks that it exits 0. */
    private void stop(Process ingest) throws Exception {
        Process stop = new ProcessBuilder("kill", "-TERM", Long.toString(ingest.pid())).start();
        assertEquals(0, stop.waitFor());
        assertTrue(ingest.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the ingest did not stop");
        assertEquals(0, ingest.exitValue(), stderr());
    }

    /** {@code java -jar parq.jar args}, with the test's defect put in if it has one. */
    private List<String> parq(String... args) {
        List<String> command = ParqJar.java("-Xmx256m");
        mutations.forEach(mutation -> command.add(mutation.javaAgent()));
        command.addAll(List.of("-jar", JAR.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Starts a parq process whose output goes to files in {@link #dir}, the same for all of a test's processes. */
    private Process start(ProcessBuilder builder) throws IOException {
        Files.deleteIfExists(dir.resolve("stderr"));
        Process process = builder
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout").toFile()))
                .redirectError(dir.resolve("stderr").toFile())
                .start();
        started.add(process);
        return process;
    }

    private String stderr() throws IOException {
        return Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
    }

    /** {@code err} is one line, no stack trace, that starts with {@code expected}. */
    private static void assertOneLine(String err, String expected) {
        List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line, not: " + err);
        assertTrue(lines.get(0).startsWith(expected), "not " + expected + "...: " + err);
        assertFalse(lines.get(0).contains("Exception"), err);
    }

    private void awaitRows(Path output, long rows, Process ingest) throws Exception {
        NumberedLines.awaitRows(output, rows, () -> assertTrue(ingest.isAlive(), "ingest ended: " + stderr()));
    }
}
