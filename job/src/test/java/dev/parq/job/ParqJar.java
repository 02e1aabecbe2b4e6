package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar run as a user runs it, {@code java -jar parq.jar ...}, in a process of its own,
 * with the build's class-data archive of the jar ({@link #java}).
 */
final class ParqJar {

    static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    /** The launcher a user runs, {@code ./parq}, with its own heap and JVM options. */
    static final Path LAUNCHER = Path.of("..", "parq").toAbsolutePath().normalize();

    /**
     * A class-data archive of the jar, recorded once per build from a conversion of the shipped
     * sample, as {@code ./parq} records its start-up cache: each of the suite's few hundred JVM
     * starts then maps Flink's classes instead of loading and linking them again (about 5 of
     * 10 CPU-seconds a start on 2 cores). What the JVMs do is the same with or without it.
     */
    private static final Path CLASS_ARCHIVE = Path.of("target", "parq-it.jsa").toAbsolutePath();
    private static final Path SAMPLE = Path.of("..", "examples", "app-logs.ndjson").toAbsolutePath().normalize();
    private static List<String> archiveOptions;

    record Run(int exit, String out, String err) {}

    private ParqJar() {}

    /**
     * The start of a command that runs a JVM on the jar, {@code java OPTIONS}, mapping the build's
     * class-data archive of the jar when there is one; add {@code -jar} {@link #JAR} and the arguments.
     */
    static List<String> java(String... options) {
        List<String> command = new ArrayList<>(List.of("java"));
        try {
            command.addAll(classArchive());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the class-data archive " + CLASS_ARCHIVE, e);
        }
        command.addAll(List.of(options));
        return command;
    }

    /** The options that map the class-data archive, recorded first if the build has none yet; none if it cannot be made. */
    private static synchronized List<String> classArchive() throws IOException {
        if (archiveOptions != null) {
            return archiveOptions;
        }
        Path lock = CLASS_ARCHIVE.resolveSibling(CLASS_ARCHIVE.getFileName() + ".lock");
        // Test JVMs of both failsafe executions share the build directory: one records, the others wait.
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            if (!Files.exists(CLASS_ARCHIVE) || Files.getLastModifiedTime(CLASS_ARCHIVE).compareTo(Files.getLastModifiedTime(JAR)) < 0) {
                recordClassArchive();
            }
        }
        archiveOptions = Files.exists(CLASS_ARCHIVE)
                ? List.of("-XX:SharedArchiveFile=" + CLASS_ARCHIVE, "-Xlog:cds=off", "-Xlog:cds+dynamic=off")
                : List.of();
        return archiveOptions;
    }

    private static void recordClassArchive() throws IOException {
        Path work = Files.createTempDirectory("parq-class-archive");
        Path recording = CLASS_ARCHIVE.resolveSibling(CLASS_ARCHIVE.getFileName() + ".part");
        Files.deleteIfExists(recording);
        Process process = new ProcessBuilder("java", "-Xmx512m", "-XX:ArchiveClassesAtExit=" + recording,
                "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-jar", JAR.toString(), "convert", SAMPLE.toString(),
                "-o", work.resolve("out").toString(), "--no-progress")
                .redirectOutput(work.resolve("stdout").toFile())
                .redirectError(work.resolve("stderr").toFile())
                .start();
        try {
            if (process.waitFor(180, TimeUnit.SECONDS) && process.exitValue() == 0 && Files.exists(recording)) {
                Files.move(recording, CLASS_ARCHIVE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                System.out.println("ParqJar: no class-data archive, JVMs start without one: "
                        + Files.readString(work.resolve("stderr"), StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while recording the class-data archive", e);
        }
    }

    /** {@code java -Xmx<heap> -jar parq.jar args}, to its end; its output goes through files in {@code dir}. */
    static Run run(Path dir, String heap, String... args) throws IOException, InterruptedException {
        return run(dir, heap, Map.of(), args);
    }

    /** As {@link #run(Path, String, String...)}, with {@code environment} set (an empty value unsets a variable). */
    static Run run(Path dir, String heap, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> command = java("-Xmx" + heap, "-jar", JAR.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        environment.forEach((name, value) -> {
            if (value.isEmpty()) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        Process process = builder
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile())
                .start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "parq did not finish");
        return new Run(process.exitValue(),
                Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }

    /** {@code ./parq args} as a user starts it, to its end; its output goes through files in {@code dir}. */
    static Run launch(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().remove("PARQ_JAVA_OPTS");
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("parq did not finish in 3 minutes: " + String.join(" ", args));
        }
        return new Run(process.exitValue(),
                Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }

    /**
     * Runs parq with {@code args} and checks that it fails (exit 1) within a minute with one line on
     * standard error, no stack trace, that contains {@code expected}; its output goes through files in {@code dir}.
     */
    static void assertFailsInOneLine(Path dir, List<String> args, String expected) throws Exception {
        // The class-data archive, if this is the first JVM of the build, is recorded before the clock starts.
        java();
        long started = System.nanoTime();
        Run run = run(dir, "512m", args.toArray(String[]::new));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertEquals(1, run.exit(), run.err());
        assertTrue(seconds < 60, "took " + seconds + " s: " + run.err());
        List<String> lines = run.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line, not: " + run.err());
        assertTrue(lines.get(0).startsWith("parq: ") && lines.get(0).contains(expected), run.err());
    }
}
