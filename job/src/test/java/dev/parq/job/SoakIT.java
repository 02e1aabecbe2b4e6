package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.mutation.Mutation;

/**
 * An ingest that runs a while under a writer that rotates its log every second or so: its open
 * descriptors and threads, read from /proc while it runs, stay where they were once it had warmed
 * up, and every line is committed once. The long suite runs it for three minutes; bench/soak runs
 * it for hours and reports memory, state and lag as well.
 */
class SoakIT {

    private static final Pattern THREADS = Pattern.compile("^Threads:\\s+(\\d+)$", Pattern.MULTILINE);
    /** What may come and go: a thread of a pool, a descriptor of a file being written. */
    private static final int SLACK = 6;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final NumberedLines numbered = new NumberedLines();
    private Mutation mutation;

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void descriptorsAndThreadsStayFlatWhileTheLogsRotate() throws Exception {
        numbered.assertEachCommittedOnce(soak(FaultsProfile.ON ? 180 : 20));
    }

    /** The test above fails when each file read leaves its descriptor open. */
    @Test
    @FaultsProfile
    void withFilesLeftOpenOnceReadDescriptorsGrow() throws Exception {
        mutation = Mutation.FILES_LEFT_OPEN;
        AssertionError grew = assertThrows(AssertionError.class, () -> soak(40));
        assertTrue(grew.getMessage().startsWith("descriptors grew"), grew.getMessage());
    }

    /**
     * Follows a rotating log for {@code seconds} after a warm-up, sampling the process every two
     * seconds; checks the last third of the samples against the first; returns the output once
     * every line is committed.
     */
    private Path soak(int seconds) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        long seed = System.nanoTime();
        System.out.println("soak seed " + seed);
        // The first lines come once the command is ready: with --ignore-older 20s, lines already
        // that old when the ingest first looks (the archive can take a while) would be passed over.
        List<String> command = ParqJar.java("-Xmx256m");
        if (mutation != null) {
            command.add(mutation.javaAgent());
        }
        command.addAll(List.of("-jar", ParqJar.JAR.toString(), "ingest", logs.resolve("app.log*").toString(),
                "-o", output.toString(), "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s",
                "--discover-interval", "200ms", "--compaction-interval", "5s", "--ignore-older", "20s", "-p", "2"));
        NumberedLines.append(log, numbered.next(100));
        Process ingest = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr").toFile()))
                .start();
        started.add(ingest);
        NumberedLines.awaitRows(output, numbered.last(), () -> assertTrue(ingest.isAlive(), stderr()));
        NumberedLines.RotatingWriter writer = numbered.writeRotating(log, 3000, new Random(seed));
        Thread.sleep(15_000);
        List<int[]> samples = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            assertTrue(ingest.isAlive(), stderr());
            samples.add(new int[] {descriptors(ingest.pid()), threads(ingest.pid())});
            Thread.sleep(2000);
        }
        writer.stop();
        System.out.println("soak: " + samples.size() + " samples of descriptors, threads: "
                + samples.stream().map(s -> s[0] + "/" + s[1]).toList());
        assertFlat("descriptors", samples, 0);
        assertFlat("threads", samples, 1);
        NumberedLines.awaitRows(output, numbered.last(), () -> assertTrue(ingest.isAlive(), stderr()));
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(ingest.pid())).start().waitFor());
        assertTrue(ingest.waitFor(NumberedLines.WAIT_SECONDS, TimeUnit.SECONDS), "did not stop on SIGTERM");
        assertEquals(0, ingest.exitValue(), stderr());
        return output;
    }

    /** The most of the last third of the samples is no more than the most of the first third and some slack. */
    private static void assertFlat(String what, List<int[]> samples, int index) {
        int third = Math.max(1, samples.size() / 3);
        int early = samples.subList(0, third).stream().mapToInt(s -> s[index]).max().orElseThrow();
        int late = samples.subList(samples.size() - third, samples.size()).stream().mapToInt(s -> s[index]).max()
                .orElseThrow();
        assertTrue(late <= early + SLACK, what + " grew: at most " + early + " early on, " + late + " at the end");
    }

    private static int descriptors(long pid) throws Exception {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        }
    }

    private static int threads(long pid) throws Exception {
        Matcher m = THREADS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        assertTrue(m.find(), "no thread count in /proc/" + pid + "/status");
        return Integer.parseInt(m.group(1));
    }

    private String stderr() throws Exception {
        Path err = dir.resolve("stderr");
        return Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "";
    }
}
