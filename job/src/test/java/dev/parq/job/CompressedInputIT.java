package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdOutputStream;

import dev.parq.testing.DuckDb;

/**
 * Compressed files and standard input converted as the plain file is: the same rows, the same
 * inferred schema; a damaged stream and a bad line inside one reported as bad input naming the file.
 */
class CompressedInputIT {

    private static final Path JAR = Path.of("target", "parq.jar").toAbsolutePath();
    private static final String SCHEMA = "id BIGINT, name STRING, score DOUBLE, tags ARRAY<STRING>";

    @TempDir
    Path dir;

    private byte[] plain;
    private Path plainFile;

    /** About 6 MB of lines: more than one chunk of the stream reader. */
    @BeforeEach
    void writePlainFile() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int id = 0; id < 80_000; id++) {
            lines.append("{\"id\":").append(id).append(",\"name\":\"user ").append(id * 7919 % 100_003)
                    .append("\",\"score\":").append(id * 0.25).append(",\"tags\":[\"t").append(id % 13)
                    .append("\",\"plain and simple text to make the line longer\"]}\n");
        }
        plain = lines.toString().getBytes(StandardCharsets.UTF_8);
        plainFile = dir.resolve("plain.ndjson");
        Files.write(plainFile, plain);
    }

    @Test
    void gzipMultiMemberZstdAndDisguisedFilesConvertAsThePlainFile() throws Exception {
        Path gz = write("one.ndjson.gz", gzip(plain));
        int half = plain.length / 2;
        Path members = write("members.ndjson.gz",
                concat(gzip(Arrays.copyOf(plain, half)), gzip(Arrays.copyOfRange(plain, half, plain.length))));
        Path zst = write("one.ndjson.zst", zstd(plain));
        Path disguised = write("disguised.ndjson", zstd(plain));
        Path expectedOut = convert(plainFile);
        List<List<Object>> expected = rows(expectedOut);
        assertEquals(80_000, expected.size());
        for (Path input : List.of(gz, members, zst, disguised)) {
            Path out = convert(input);
            assertEquals(expected, rows(out), input.toString());
            assertEquals(schema(expectedOut), schema(out), "inferred from " + input);
        }
    }

    /**
     * A single compressed file is parsed and written by every reader, each taking its share of
     * the stream's chunks: two part files with rows in each, every line once.
     */
    @Test
    void aSingleCompressedFileIsSharedByTheReaders() throws Exception {
        List<List<Object>> expected = rows(convert(plainFile));
        for (Path input : List.of(write("shared.ndjson.gz", gzip(plain)), write("shared.ndjson.zst", zstd(plain)))) {
            Path out = dir.resolve("out-shared-" + input.getFileName());
            Cli.Result result = Cli.run("convert", input.toString(), "-o", out.toString(), "-p", "2",
                    "-D", "parq.source.chunk-size=1mb");
            assertEquals(0, result.exitCode(), result.err());
            assertEquals(expected, rows(out), input.toString());
            assertEachOfTwoPartsHoldsRows(out);
        }
    }

    @Test
    void aTruncatedGzipAndACorruptZstdAreBadInputNamingTheFile() throws Exception {
        byte[] compressed = gzip(plain);
        Path truncated = write("cut.ndjson.gz", Arrays.copyOf(compressed, compressed.length / 2));
        byte[] damaged = zstd(plain);
        Arrays.fill(damaged, 12, 40, (byte) 0xff);
        Path corrupt = write("bad.ndjson.zst", damaged);
        for (Path input : List.of(truncated, corrupt)) {
            for (boolean inferred : new boolean[] {false, true}) {
                Cli.Result result = inferred
                        ? Cli.run("convert", input.toString(), "-o", dir.resolve("out-" + inferred).toString(), "--overwrite")
                        : Cli.run("convert", input.toString(), "-o", dir.resolve("out-" + inferred).toString(), "--overwrite",
                                "--schema", SCHEMA);
                assertEquals(1, result.exitCode(), result.err());
                assertTrue(result.err().contains(input + ": truncated or corrupt "), result.err());
                assertTrue(result.err().contains("of the decompressed stream"), result.err());
                assertFalse(result.err().contains("\tat "), "no stack trace:\n" + result.err());
            }
        }
    }

    @Test
    void aBadLineInAGzipFileIsReportedAtItsDecompressedOffset() throws Exception {
        String bad = "{\"id\":1,\"name\":\"unfinished\n";
        // Past the first chunk, so that the offset is the chunk's plus the line's within it.
        int lineStart = lastLineStart(Arrays.copyOf(plain, 5_000_000));
        byte[] withBad = concat(Arrays.copyOf(plain, lineStart), bad.getBytes(StandardCharsets.UTF_8),
                Arrays.copyOfRange(plain, lineStart, plain.length));
        Path gz = write("bad-line.ndjson.gz", gzip(withBad));
        Cli.Result result = Cli.run("convert", gz.toString(), "-o", dir.resolve("out").toString(), "--schema", SCHEMA);
        assertEquals(1, result.exitCode(), result.err());
        assertTrue(result.err().contains(gz + ": bad line at byte " + lineStart + " of the decompressed stream: "),
                result.err());
    }

    @Test
    void standardInputIsReadByTheJarPlainOrCompressed() throws Exception {
        List<List<Object>> expected = rows(convert(plainFile));
        Path plainOut = dir.resolve("stdin-plain");
        assertEquals(0, jar(plain, "convert", "-", "-o", plainOut.toString(), "--sample-size", "1mb"));
        assertEquals(expected, rows(plainOut));
        assertEquals(schema(convert(plainFile, "again")), schema(plainOut), "inferred from the head of stdin");
        Path gzOut = dir.resolve("stdin-gz");
        assertEquals(0, jar(gzip(plain), "convert", "-", "-o", gzOut.toString(), "--schema", SCHEMA));
        assertEquals(expected, rows(gzOut));
    }

    /**
     * Standard input, read once, is dealt to every reader of the job: with two, two part files
     * with rows in each, every line once, plain or compressed.
     */
    @Test
    void standardInputIsDealtToTheReaders() throws Exception {
        List<List<Object>> expected = rows(convert(plainFile));
        for (boolean compressed : new boolean[] {false, true}) {
            Path out = dir.resolve("stdin-dealt-" + compressed);
            assertEquals(0, jar(compressed ? gzip(plain) : plain, "convert", "-", "-o", out.toString(),
                    "--schema", SCHEMA, "-p", "2", "-D", "parq.source.chunk-size=1mb"));
            assertEquals(expected, rows(out), "compressed: " + compressed);
            assertEachOfTwoPartsHoldsRows(out);
        }
    }

    /**
     * Run by the jar, whose job's readers all run in its process, a compressed file's shares are
     * dealt from one reading of it: the same rows, in two part files.
     */
    @Test
    void aCompressedFileIsDealtWhenTheJobRunsInTheJarsProcess() throws Exception {
        List<List<Object>> expected = rows(convert(plainFile));
        Path gz = write("dealt.ndjson.gz", gzip(plain));
        Path out = dir.resolve("dealt-gz");
        assertEquals(0, jar(new byte[0], "convert", gz.toString(), "-o", out.toString(), "--schema", SCHEMA,
                "-p", "2", "-D", "parq.source.chunk-size=1mb"));
        assertEquals(expected, rows(out));
        assertEachOfTwoPartsHoldsRows(out);
    }

    private static void assertEachOfTwoPartsHoldsRows(Path out) throws Exception {
        List<Path> parts;
        try (var files = Files.list(out)) {
            parts = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
        assertEquals(2, parts.size(), parts.toString());
        for (Path part : parts) {
            long rows = (Long) DuckDb.query("SELECT count(*) FROM read_parquet('" + part + "')").get(0).get(0);
            assertTrue(rows > 10_000, part + " holds " + rows + " rows");
        }
    }

    @Test
    void standardInputIsAUsageErrorUnderTheApplicationEntry() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            Main.CommandFailedException failure = assertThrows(
                    Main.CommandFailedException.class,
                    () -> Main.main(new String[] {"convert", "-", "-o", dir.resolve("out").toString()}));
            assertEquals(2, failure.exitCode());
        } finally {
            System.setErr(err);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).contains("- (standard input) can be read by ./parq"),
                captured.toString(StandardCharsets.UTF_8));
    }

    private Path convert(Path input) {
        return convert(input, "");
    }

    private Path convert(Path input, String tag) {
        Path out = dir.resolve("out-" + input.getFileName() + tag);
        Cli.Result result = Cli.run("convert", input.toString(), "-o", out.toString());
        assertEquals(0, result.exitCode(), result.err());
        return out;
    }

    /** {@code java -jar parq.jar args} with {@code stdin} piped in; its exit code. */
    private int jar(byte[] stdin, String... args) throws IOException, InterruptedException {
        List<String> command = ParqJar.java("-Xmx768m", "-jar", JAR.toString());
        command.addAll(List.of(args));
        Path stderr = dir.resolve("stderr");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile())
                .redirectOutput(dir.resolve("stdout").toFile()).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin);
        }
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "parq did not finish");
        if (process.exitValue() != 0) {
            System.err.println(Files.readString(stderr));
        }
        return process.exitValue();
    }

    private static List<List<Object>> rows(Path out) throws Exception {
        return DuckDb.query("SELECT id, name, score, CAST(tags AS VARCHAR) FROM " + DuckDb.parquet(out) + " ORDER BY id");
    }

    private static String schema(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("_SUCCESS").toFile()).get("schema").asText();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private static int lastLineStart(byte[] lines) {
        int i = lines.length - 2;
        while (lines[i] != '\n') {
            i--;
        }
        return i + 1;
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] zstd(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream zst = new ZstdOutputStream(out)) {
            zst.write(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
