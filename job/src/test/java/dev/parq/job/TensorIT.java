package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.TensorRun;
import dev.parq.mmap.DType;
import dev.parq.mmap.DoubleArray;
import dev.parq.mmap.FloatArray;
import dev.parq.mmap.MmapArray;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.source.NdjsonSourceOptions;

/**
 * {@code parq tensor} on generated NDJSON cut into many splits and read by two parallel parsers:
 * the array must hold the rows in input order, whatever parser read them.
 */
class TensorIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "x,user.score,user.id,id";
    private static final double NAN = Double.NaN;

    @TempDir
    Path dir;

    /** One generated input file: its lines, the expected row of each good line, each bad line's offset. */
    private static final class Input {
        final Path path;
        final List<double[]> rows = new ArrayList<>();
        final Map<Long, String> badOffsets = new TreeMap<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Input(Path path) {
            this.path = path;
        }

        void good(String line, double... row) {
            rows.add(row);
            append(line);
        }

        void bad(String expectedInError, String line) {
            badOffsets.put((long) bytes.size(), expectedInError);
            append(line);
        }

        void append(String line) {
            bytes.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
        }

        Input write() throws Exception {
            Files.write(path, bytes.toByteArray());
            return this;
        }
    }

    /** Rows whose columns x, user.score, user.id, id cover numbers, nulls, missing keys and null parents. */
    private Input generate(String name, int lines, long seed, boolean withBadLines) throws Exception {
        Input input = new Input(dir.resolve(name));
        Random random = new Random(seed);
        for (int i = 0; i < lines; i++) {
            long id = seed * 1_000_000 + i;
            if (withBadLines && i % 97 == 13) {
                switch (i % 3) {
                    case 0 -> input.bad("x", "{\"id\": " + id + ", \"x\": \"12.5\"}");
                    case 1 -> input.bad("user", "{\"id\": " + id + ", \"user\": \"alice\"}");
                    default -> input.bad("JSON", "{\"id\": " + id + ", \"x\": 1,}");
                }
                continue;
            }
            if (i % 50 == 7) {
                input.append(i % 100 == 7 ? "" : "   ");
            }
            double x = Math.round(random.nextGaussian() * 1e6) / 1e3;
            double score = random.nextInt(1000) / 8.0;
            long userId = random.nextInt(1_000_000);
            switch (i % 6) {
                case 0 -> input.good(String.format(Locale.ROOT,
                        "{\"id\": %d, \"x\": %s, \"user\": {\"id\": %d, \"score\": %s, \"name\": \"u\"}}",
                        id, x, userId, score), x, score, userId, id);
                case 1 -> input.good(String.format(Locale.ROOT,
                        "{\"user\": {\"score\": %s}, \"x\": null, \"id\": %d, \"tags\": [1, {\"a\": 2}]}",
                        score, id), NAN, score, NAN, id);
                case 2 -> input.good("{\"id\": " + id + ", \"user\": null, \"x\": " + (long) x + "}",
                        (long) x, NAN, NAN, id);
                case 3 -> input.good("{\"id\": " + id + "}", NAN, NAN, NAN, id);
                case 4 -> input.good(String.format(Locale.ROOT, "{\"x\": %se2, \"user\": {\"id\": null,"
                        + " \"score\": -0.0}, \"id\": %d}", x, id), Double.parseDouble(x + "e2"), -0.0, NAN, id);
                default -> input.good(String.format(Locale.ROOT, "{\"id\": %d, \"user\": {\"id\": %d}, \"x\": %s}",
                        id, userId, x), x, NAN, userId, id);
            }
        }
        return input.write();
    }

    private static List<double[]> expectedRows(Input... inputs) {
        List<double[]> rows = new ArrayList<>();
        for (Input input : inputs) {
            rows.addAll(input.rows);
        }
        return rows;
    }

    @Test
    void float64RowsComeOutInInputOrderAcrossSplitsAndParsers() throws Exception {
        Input second = generate("b.ndjson", 3000, 2, false);
        Input first = generate("a.ndjson", 2500, 1, false);
        Path out = dir.resolve("out/features.mmap");
        Cli.Result result = Cli.run("tensor", second.path.toString(), first.path.toString(), "--columns", COLUMNS,
                "-o", out.toString(), "--split-size", "8kb", "--parallelism", "2", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());

        List<double[]> expected = expectedRows(second, first);
        try (MmapArray<DoubleArray> array = MmapArray.openReadOnly(out, DType.FLOAT64)) {
            assertArrayEquals(new long[] {expected.size(), 4}, array.shape());
            DoubleArray view = array.view();
            for (int row = 0; row < expected.size(); row++) {
                for (int column = 0; column < 4; column++) {
                    assertEquals(expected.get(row)[column], view.get(row, column),
                            "row " + row + ", column " + column);
                }
            }
        }
        assertTrue(result.out().contains("rows           " + String.format(Locale.ROOT, "%,d", expected.size())),
                result.out());
        assertTrue(result.out().contains("dtype          float64"), result.out());
        assertTrue(result.out().contains("np.memmap('" + out + "', dtype='<f8', mode='r', offset=64, shape=("
                + expected.size() + ", 4))"), result.out());
        try (Stream<Path> left = Files.list(out.getParent())) {
            assertEquals(List.of(out), left.toList(), "only the array is left next to it");
        }
    }

    @Test
    void float32WithSmallBatchesMatchesTheInputConvertedToFloat() throws Exception {
        Input first = generate("a.ndjson", 2000, 3, false);
        Input second = generate("b.ndjson", 1500, 4, false);
        Path out = dir.resolve("features32.mmap");
        Configuration config = new Configuration();
        config.set(ParqOptions.INPUTS, List.of(first.path.toString(), second.path.toString()));
        config.set(ParqOptions.OUTPUT, out.toString());
        config.set(ParqOptions.TENSOR_COLUMNS, COLUMNS);
        config.set(ParqOptions.TENSOR_DTYPE, "float32");
        config.set(NdjsonSourceOptions.SPLIT_SIZE, MemorySize.parse("5kb"));
        config.set(ParseOptions.BATCH_ROWS, 7);
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        TensorRun.Result result = TensorRun.run(config, null);

        List<double[]> expected = expectedRows(first, second);
        assertEquals(expected.size(), result.rows());
        try (MmapArray<FloatArray> array = MmapArray.openReadOnly(out, DType.FLOAT32)) {
            assertArrayEquals(new long[] {expected.size(), 4}, array.shape());
            FloatArray view = array.view();
            for (int row = 0; row < expected.size(); row++) {
                for (int column = 0; column < 4; column++) {
                    assertEquals((float) expected.get(row)[column], view.get(row, column),
                            "row " + row + ", column " + column);
                }
            }
        }
    }

    @Test
    void numpyReadsTheArrayWithThePrintedOneLiner() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy is not available; skipping the numpy check");
        Input input = generate("a.ndjson", 1200, 5, false);
        Path out = dir.resolve("np.mmap");
        Cli.Result result = Cli.run("tensor", input.path.toString(), "--columns", COLUMNS, "-o", out.toString(),
                "--split-size", "4kb", "--parallelism", "2", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());
        String oneLiner = result.out().lines().filter(l -> l.contains("np.memmap(")).findFirst().orElseThrow()
                .replaceFirst("^\\s*numpy\\s+", "");

        Process python = new ProcessBuilder("python3", "-c", "import numpy as np\na = " + oneLiner + "\n"
                + "print(a.dtype, a.shape)\n"
                + "for row in a: print(' '.join(repr(float(v)) for v in row))")
                .redirectErrorStream(true).start();
        String printed = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, python.exitValue(), printed);
        List<String> lines = printed.lines().toList();
        assertEquals("float64 (" + input.rows.size() + ", 4)", lines.get(0));
        for (int row = 0; row < input.rows.size(); row++) {
            String[] values = lines.get(row + 1).split(" ");
            for (int column = 0; column < 4; column++) {
                double value = values[column].equals("nan") ? NAN : Double.parseDouble(values[column]);
                assertEquals(input.rows.get(row)[column], value, "numpy row " + row + ", column " + column);
            }
        }
    }

    private static boolean numpyAvailable() {
        try {
            Process check = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            check.getInputStream().readAllBytes();
            return check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void rejectModeKeepsGoodRowsInOrderAndBadLinesAtTheirOffsets() throws Exception {
        Input input = generate("mixed.ndjson", 3000, 6, true);
        Path out = dir.resolve("mixed.mmap");
        Cli.Result result = Cli.run("tensor", input.path.toString(), "--columns", COLUMNS, "-o", out.toString(),
                "--on-error", "reject", "--split-size", "6kb", "--parallelism", "2", "--no-progress");
        assertEquals(0, result.exitCode(), result.err());

        try (MmapArray<DoubleArray> array = MmapArray.openReadOnly(out, DType.FLOAT64)) {
            assertArrayEquals(new long[] {input.rows.size(), 4}, array.shape());
            for (int row = 0; row < input.rows.size(); row++) {
                for (int column = 0; column < 4; column++) {
                    assertEquals(input.rows.get(row)[column], array.view().get(row, column),
                            "row " + row + ", column " + column);
                }
            }
        }
        Map<Long, JsonNode> rejected = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir.resolve("mixed.mmap.rejected"))) {
            for (Path file : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    JsonNode record = JSON.readTree(line);
                    assertEquals(input.path.toString(), record.get("file").asText());
                    rejected.put(record.get("offset").asLong(), record);
                }
            }
        }
        assertEquals(input.badOffsets.keySet(), rejected.keySet());
        for (Map.Entry<Long, String> bad : input.badOffsets.entrySet()) {
            assertTrue(rejected.get(bad.getKey()).get("error").asText().contains(bad.getValue()),
                    "error at offset " + bad.getKey() + ": " + rejected.get(bad.getKey()));
        }
        assertTrue(result.out().contains("rejected       " + input.badOffsets.size()), result.out());

        Cli.Result again = Cli.run("tensor", input.path.toString(), "--columns", COLUMNS, "-o", out.toString(),
                "--on-error", "reject", "--no-progress");
        assertEquals(2, again.exitCode(), again.err());
        assertTrue(again.err().contains("--overwrite"), again.err());
        Cli.Result overwritten = Cli.run("tensor", input.path.toString(), "--columns", "x,id", "-o", out.toString(),
                "--on-error", "reject", "--overwrite", "--no-progress", "--parallelism", "1");
        assertEquals(0, overwritten.exitCode(), overwritten.err());
        long userNotAColumn = input.badOffsets.values().stream().filter("user"::equals).count();
        try (MmapArray<DoubleArray> array = MmapArray.openReadOnly(out, DType.FLOAT64)) {
            assertArrayEquals(new long[] {input.rows.size() + userNotAColumn, 2}, array.shape());
        }
        assertTrue(overwritten.out().contains("rejected       " + (input.badOffsets.size() - userNotAColumn)),
                overwritten.out());
    }

    @Test
    void failModeExitsOneNamingTheFileAndOffsetAndLeavesNoArray() throws Exception {
        Input input = generate("mixed.ndjson", 500, 7, true);
        Path out = dir.resolve("fail.mmap");
        Cli.Result result = Cli.run("tensor", input.path.toString(), "--columns", COLUMNS, "-o", out.toString(),
                "--parallelism", "1", "--no-progress");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        long first = input.badOffsets.keySet().iterator().next();
        assertTrue(result.err().contains(input.path + ": bad line at byte " + first + ":"), result.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(input.path), left.toList(), "no array, rejected or temporary files");
        }
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Input input = generate("a.ndjson", 10, 8, false);
        Path out = dir.resolve("u.mmap");
        Cli.Result noColumns = Cli.run("tensor", input.path.toString(), "-o", out.toString());
        assertEquals(2, noColumns.exitCode(), noColumns.err());
        assertTrue(noColumns.err().contains("--columns"), noColumns.err());
        Cli.Result twice = Cli.run("tensor", input.path.toString(), "-o", out.toString(), "--columns", "x,x");
        assertEquals(2, twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("given twice"), twice.err());
        Cli.Result dtype = Cli.run("tensor", input.path.toString(), "-o", out.toString(), "--columns", "x",
                "--dtype", "int8");
        assertEquals(2, dtype.exitCode(), dtype.err());
        assertFalse(Files.exists(out));
    }
}
