package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.parq.testing.DuckDb;

/**
 * Inputs of long string values convert with the launcher's own default heap, whatever their mix
 * of sizes and shapes: many values of tens or hundreds of kilobytes, a few of megabytes, lines just
 * under the line limit alone and in a row, in several columns, inside ROW, ARRAY and MAP, text that
 * compresses and bytes that do not, at parallelism 1, 2 and 6 and with every codec. Each run goes
 * through {@code ./parq} as a user starts it (no {@code PARQ_JAVA_OPTS}), and DuckDB reads the
 * input and the Parquet output and finds the same rows in both. Every build runs each kind of input
 * once; the long suite ({@link FaultsProfile}) more sizes and shapes of them.
 */
class LargeValuesIT {

    private static final Pattern LIMIT = Pattern.compile("takes lines of up to ([0-9,]+) bytes");

    /** The longest line the launcher's default heap takes, the line feed included; read from its own message. */
    private static long lineLimit;

    @TempDir
    Path dir;

    /** How a line lays out its string values. */
    enum Shape {
        /** Top-level columns {@code c0 ... c(n-1)}. */
        COLUMNS,
        /** The values in {@code r ROW<c0 STRING, ...>}. */
        ROW,
        /** The values in {@code a ARRAY<STRING>}. */
        ARRAY,
        /** The values spread over {@code a ARRAY<ROW<v STRING>>} and {@code m MAP<STRING, STRING>}, written by parquet-mr's column writers. */
        NESTED;

        String schema(int values) {
            switch (this) {
                case COLUMNS: {
                    StringBuilder ddl = new StringBuilder("id BIGINT");
                    for (int c = 0; c < values; c++) {
                        ddl.append(", c").append(c).append(" STRING");
                    }
                    return ddl.toString();
                }
                case ROW: {
                    StringBuilder ddl = new StringBuilder("id BIGINT, r ROW<");
                    for (int c = 0; c < values; c++) {
                        ddl.append(c == 0 ? "" : ", ").append("c").append(c).append(" STRING");
                    }
                    return ddl.append(">").toString();
                }
                case ARRAY:
                    return "id BIGINT, a ARRAY<STRING>";
                default:
                    return "id BIGINT, a ARRAY<ROW<v STRING>>, m MAP<STRING, STRING>";
            }
        }

        String duckDbColumns(int values) {
            switch (this) {
                case COLUMNS: {
                    StringBuilder columns = new StringBuilder("{'id': 'BIGINT'");
                    for (int c = 0; c < values; c++) {
                        columns.append(", 'c").append(c).append("': 'VARCHAR'");
                    }
                    return columns.append("}").toString();
                }
                case ROW: {
                    StringBuilder columns = new StringBuilder("{'id': 'BIGINT', 'r': 'STRUCT(");
                    for (int c = 0; c < values; c++) {
                        columns.append(c == 0 ? "" : ", ").append("c").append(c).append(" VARCHAR");
                    }
                    return columns.append(")'}").toString();
                }
                case ARRAY:
                    return "{'id': 'BIGINT', 'a': 'VARCHAR[]'}";
                default:
                    return "{'id': 'BIGINT', 'a': 'STRUCT(v VARCHAR)[]', 'm': 'MAP(VARCHAR, VARCHAR)'}";
            }
        }

        /** The line of row {@code id} with {@code values} (JSON-safe text), without its line feed. */
        String line(long id, List<String> values) {
            StringBuilder line = new StringBuilder("{\"id\":").append(id);
            switch (this) {
                case COLUMNS:
                    for (int c = 0; c < values.size(); c++) {
                        line.append(",\"c").append(c).append("\":\"").append(values.get(c)).append('"');
                    }
                    return line.append('}').toString();
                case ROW:
                    line.append(",\"r\":{");
                    for (int c = 0; c < values.size(); c++) {
                        line.append(c == 0 ? "" : ",").append("\"c").append(c).append("\":\"").append(values.get(c)).append('"');
                    }
                    return line.append("}}").toString();
                case ARRAY:
                    line.append(",\"a\":[");
                    for (int c = 0; c < values.size(); c++) {
                        line.append(c == 0 ? "" : ",").append('"').append(values.get(c)).append('"');
                    }
                    return line.append("]}").toString();
                default:
                    int half = (values.size() + 1) / 2;
                    line.append(",\"a\":[");
                    for (int c = 0; c < half; c++) {
                        line.append(c == 0 ? "" : ",").append("{\"v\":\"").append(values.get(c)).append("\"}");
                    }
                    line.append("],\"m\":{");
                    for (int c = half; c < values.size(); c++) {
                        line.append(c == half ? "" : ",").append("\"k").append(c).append("\":\"").append(values.get(c)).append('"');
                    }
                    return line.append("}}").toString();
            }
        }
    }

    /**
     * One input: {@code lines} lines of {@code values} string values each, of {@code valueBytes}
     * bytes (or, with {@code valueBytes} 0, filling each line to just under the line limit),
     * converted with {@code codec} at parallelism {@code parallelism}.
     */
    record Input(String name, Shape shape, int lines, int values, long valueBytes, boolean incompressible,
            String codec, int parallelism) {
        @Override
        public String toString() {
            return name + " (" + codec + ", p=" + parallelism + ")";
        }
    }

    /** Each kind of input once, every codec among them: what every build runs. */
    static Stream<Arguments> inputs() {
        return Stream.of(
                // Sizes that ran the default heap out of memory, one string column each.
                new Input("3 lines of 10 MiB", Shape.COLUMNS, 3, 1, 10 << 20, false, "gzip", 2),
                new Input("150 lines of 320 KB", Shape.COLUMNS, 150, 1, 320_000, false, "none", 1),
                // Bytes that do not compress: the compressed page is as large as the page.
                new Input("40 incompressible lines of 1 MB", Shape.COLUMNS, 40, 1, 1_000_000, true, "snappy", 1),
                // Lines just under the limit, several large values each, flat and in repeated records.
                new Input("lines at the limit, 3 columns", Shape.COLUMNS, 5, 3, 0, true, "lz4_raw", 2),
                new Input("lines at the limit, in ARRAY<ROW> and MAP", Shape.NESTED, 4, 4, 0, false, "zstd", 2),
                // More parsers than cores, each meeting lines at the limit at the same time: they
                // share one budget for long lines, and must neither run out of heap nor wait for
                // each other forever.
                new Input("lines at the limit, 6 parsers at once", Shape.COLUMNS, 6, 1, 0, false, "zstd", 6))
                .map(Arguments::of);
    }

    /** More sizes and shapes of the same kinds, and lines at the limit with each codec: the long suite's. */
    static Stream<Arguments> moreInputs() {
        List<Input> inputs = new ArrayList<>(List.of(
                new Input("2 lines of 14 MB", Shape.COLUMNS, 2, 1, 14_000_000, false, "zstd", 1),
                new Input("12 lines of 3.2 MB", Shape.COLUMNS, 12, 1, 3_200_000, false, "lz4_raw", 2),
                new Input("6,000 lines of 32 KB", Shape.COLUMNS, 6_000, 1, 32_000, false, "snappy", 2),
                new Input("1,500 incompressible lines of 32 KB", Shape.COLUMNS, 1_500, 1, 32_000, true, "zstd", 2),
                new Input("lines at the limit, in a ROW", Shape.ROW, 4, 2, 0, false, "gzip", 1),
                new Input("lines at the limit, in an ARRAY", Shape.ARRAY, 4, 3, 0, true, "snappy", 2),
                new Input("320 KB values in ARRAY<ROW> and MAP", Shape.NESTED, 100, 4, 80_000, false, "snappy", 1)));
        // One value just under the limit per line, many in a row, with every codec.
        String[] codecs = {"snappy", "zstd", "gzip", "lz4_raw", "none"};
        for (int i = 0; i < codecs.length; i++) {
            inputs.add(new Input("lines at the limit", Shape.COLUMNS, 4, 1, 0, i % 2 == 0, codecs[i], 1 + i % 2));
        }
        return inputs.stream().map(Arguments::of);
    }

    @BeforeAll
    static void readTheLineLimit(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("too-long.ndjson");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(input), 1 << 20)) {
            out.write("{\"s\":\"".getBytes(StandardCharsets.US_ASCII));
            byte[] block = "x".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 1024; i++) {
                out.write(block);
            }
            out.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
        }
        Run run = parq(dir, "convert", input.toString(), "-o", dir.resolve("out").toString(), "--schema", "s STRING");
        assertEquals(1, run.exit, run.err);
        Matcher limit = LIMIT.matcher(run.err);
        assertTrue(limit.find(), run.err);
        lineLimit = Long.parseLong(limit.group(1).replace(",", ""));
        assertTrue(lineLimit > 8 << 20, "the default heap takes lines of " + lineLimit + " bytes only");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("moreInputs")
    @FaultsProfile
    void convertsMoreWithTheDefaultHeap(Input input) throws Exception {
        convertsWithTheDefaultHeap(input);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void convertsWithTheDefaultHeap(Input input) throws Exception {
        Path file = dir.resolve("input.ndjson");
        write(input, file);
        Path output = dir.resolve("out");
        Run run = parq(dir, "convert", file.toString(), "-o", output.toString(), "--schema",
                input.shape().schema(input.values()), "--compression", input.codec(),
                "-p", Integer.toString(input.parallelism()), "--split-size", "8mb", "--no-progress");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains(String.format(Locale.ROOT, "rows written   %,d ", input.lines())), run.out);

        String json = "read_json('" + file + "', format = 'newline_delimited', maximum_object_size = "
                + (2 * lineLimit) + ", columns = " + input.shape().duckDbColumns(input.values()) + ")";
        String parquet = DuckDb.parquet(output);
        assertEquals(input.lines(), DuckDb.count(parquet));
        assertEquals(0, DuckDb.count("(SELECT * FROM " + json + " EXCEPT ALL SELECT * FROM " + parquet + ")"),
                "rows of the input missing from the Parquet files");
        assertEquals(0, DuckDb.count("(SELECT * FROM " + parquet + " EXCEPT ALL SELECT * FROM " + json + ")"),
                "rows in the Parquet files that are not in the input");
    }

    /** Writes the input's lines, each value distinct: counted words, or base64 of random bytes. */
    private void write(Input input, Path file) throws IOException {
        Random random = new Random(input.name().hashCode() * 31L + input.codec().hashCode());
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (int id = 0; id < input.lines(); id++) {
                List<String> empty = new ArrayList<>();
                for (int v = 0; v < input.values(); v++) {
                    empty.add("");
                }
                long frame = input.shape().line(id, empty).length() + 1;
                long valueBytes = input.valueBytes() > 0 ? input.valueBytes()
                        : (lineLimit - 64 - frame) / input.values();
                List<String> values = new ArrayList<>();
                for (int v = 0; v < input.values(); v++) {
                    values.add(value(random, (int) valueBytes, input.incompressible()));
                }
                String line = input.shape().line(id, values);
                assertTrue(line.length() < lineLimit, "line of " + line.length() + " bytes");
                out.write(line.getBytes(StandardCharsets.US_ASCII));
                out.write('\n');
            }
        }
    }

    private static String value(Random random, int bytes, boolean incompressible) {
        if (incompressible) {
            byte[] noise = new byte[bytes * 3 / 4 + 3];
            random.nextBytes(noise);
            return Base64.getEncoder().encodeToString(noise).substring(0, bytes);
        }
        StringBuilder text = new StringBuilder(bytes + 16);
        while (text.length() < bytes) {
            text.append("word").append(random.nextInt(100_000)).append(' ');
        }
        text.setLength(bytes);
        return text.toString();
    }

    record Run(int exit, String out, String err) {}

    /** {@code ./parq args} as a user starts it: the launcher's own heap and JVM options. */
    private static Run parq(Path dir, String... args) throws IOException, InterruptedException {
        ParqJar.Run run = ParqJar.launch(dir, args);
        return new Run(run.exit(), run.out(), run.err());
    }
}
