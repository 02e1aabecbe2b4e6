package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged jar run as a user runs it, {@code java -jar parq.jar ...}, in a process of its own. */
final class ParqJar {

    static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    /** The launcher a user runs, {@code ./parq}, with its own heap and JVM options. */
    static final Path LAUNCHER = Path.of("..", "parq").toAbsolutePath().normalize();

    record Run(int exit, String out, String err) {}

    private ParqJar() {}

    /** {@code java -Xmx<heap> -jar parq.jar args}, to its end; its output goes through files in {@code dir}. */
    static Run run(Path dir, String heap, String... args) throws IOException, InterruptedException {
        return run(dir, heap, Map.of(), args);
    }

    /** As {@link #run(Path, String, String...)}, with {@code environment} set (an empty value unsets a variable). */
    static Run run(Path dir, String heap, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("java", "-Xmx" + heap, "-jar", JAR.toString()));
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
