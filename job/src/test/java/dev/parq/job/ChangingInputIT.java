package dev.parq.job;

import static dev.parq.job.ParqJar.JAR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input file that changes while {@code convert} reads it (it is memory-mapped: a page past a
 * new end faults when touched): the conversion fails with one line naming the file, no JVM crash,
 * and leaves nothing in its output, not a {@code _SUCCESS}, not a part file.
 */
class ChangingInputIT {

    /** Large enough that the conversion is still reading when its first part file appears. */
    private static final long SIZE = 128L << 20;
    private static final long SPLIT = 16L << 20;
    private static final String SCHEMA = "ts TIMESTAMP_LTZ(3), level STRING, n BIGINT, msg STRING";

    @TempDir
    Path dir;

    @Test
    void aFileTruncatedWhileReadFailsTheConversionNamingIt() throws Exception {
        Path input = writeInput(dir.resolve("in.ndjson"));
        assertFailsNaming(input, () -> {
            try (FileChannel channel = FileChannel.open(input, StandardOpenOption.WRITE)) {
                channel.truncate(1 << 20);
            }
        }, "was truncated while it was being read");
    }

    @Test
    void aFileDeletedWhileReadFailsTheConversionNamingIt() throws Exception {
        Path input = writeInput(dir.resolve("in.ndjson"));
        assertFailsNaming(input, () -> Files.delete(input), "was deleted or renamed while it was being read");
    }

    @Test
    void aFileReplacedWhileReadFailsTheConversionNamingIt() throws Exception {
        Path input = writeInput(dir.resolve("in.ndjson"));
        Path other = writeInput(dir.resolve("other.ndjson"));
        assertFailsNaming(input, () -> Files.move(other, input, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE), "was replaced while it was being read");
    }

    private interface Change {
        void apply() throws IOException;
    }

    /** Starts a conversion of {@code input}, changes the file once a reader is in the middle of a split. */
    private void assertFailsNaming(Path input, Change change, String expected) throws Exception {
        Path output = dir.resolve("out");
        List<String> command = ParqJar.java("-Xmx256m", "-jar", JAR.toString(), "convert", input.toString(),
                "-o", output.toString(), "-p", "2", "--no-progress", "--schema", SCHEMA, "--split-size", "16mb");
        Process convert = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!reading(convert.pid(), input)) {
                assertTrue(convert.isAlive(), "the conversion ended before it read: " + stderr());
                assertTrue(System.nanoTime() < deadline, "the conversion did not read in 60 s");
                Thread.sleep(5);
            }
            change.apply();
            assertTrue(convert.waitFor(120, TimeUnit.SECONDS), "the conversion did not end");
        } finally {
            convert.destroyForcibly();
        }
        String err = stderr();
        assertEquals(1, convert.exitValue(), err);
        List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line, not: " + err);
        assertTrue(lines.get(0).startsWith("parq: input file " + input) && lines.get(0).contains(expected), err);
        assertFalse(Files.exists(output.resolve("_SUCCESS")), "a manifest");
        if (Files.exists(output)) {
            try (Stream<Path> files = Files.walk(output)) {
                List<Path> visible = files.filter(Files::isRegularFile)
                        .filter(f -> !f.getFileName().toString().startsWith(".")).toList();
                assertEquals(List.of(), visible, "visible files in the output");
            }
        }
    }

    /**
     * Whether a reader has a chunk of {@code input} mapped in the middle of a split: a mapping of the
     * file (in {@code /proc/PID/maps}) at an offset that is not a split's start. Inference is off
     * ({@link #SCHEMA}), so no sample maps the file.
     */
    private static boolean reading(long pid, Path input) throws IOException {
        List<String> maps;
        try {
            maps = Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"));
        } catch (IOException ended) {
            return false;
        }
        for (String line : maps) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 6 && fields[5].equals(input.toString())) {
                long offset = Long.parseLong(fields[2], 16);
                if (offset % SPLIT != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@link #SIZE} bytes of small log lines, written in blocks. */
    private static Path writeInput(Path file) throws IOException {
        StringBuilder block = new StringBuilder();
        for (int i = 0; block.length() < (1 << 20) - 200; i++) {
            block.append("{\"ts\":\"2026-12-05T10:00:00Z\",\"level\":\"INFO\",\"n\":").append(i)
                    .append(",\"msg\":\"request served in ").append(i % 977).append(" ms\"}\n");
        }
        byte[] bytes = block.toString().getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < SIZE; written += bytes.length) {
                out.write(bytes);
            }
        }
        return file;
    }

    private String stderr() throws IOException {
        return Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
    }
}
