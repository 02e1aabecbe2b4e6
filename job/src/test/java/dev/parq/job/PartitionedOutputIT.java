package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.parq.testing.DuckDb;

/**
 * {@code convert --partition-by} and {@code --target-file-size}, read back by DuckDB with Hive
 * partitioning: every row in the folder of its own value, the counts per folder those of the
 * input, the value columns left out of the files, and files of the size asked for.
 */
class PartitionedOutputIT {

    private static final String[] OFFSETS = {"Z", "+00:00", "+05:30", "-08:00", "+14:00", "-11:00"};
    private static final String[] LEVELS = {"INFO", "WARN", "ERROR", "a/b=c", "", "ü%", null};

    @TempDir
    Path dir;

    /** The folder each line belongs in, by its UTC day or level, counted as the input is written. */
    private final Map<String, Long> byDay = new TreeMap<>();
    private final Map<String, Long> byLevel = new HashMap<>();

    /**
     * {@code lines} log lines over {@code days} days, timestamps written in various offsets, every
     * 50th null and every 77th absent, levels including ones that need escapes, null and empty.
     */
    private Path logs(int lines, int days, int padding) throws IOException {
        Path input = dir.resolve("logs.ndjson");
        Random random = new Random(7);
        long start = Instant.parse("2024-02-28T21:00:00Z").getEpochSecond();
        long step = days * 86_400L / lines;
        try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int seq = 0; seq < lines; seq++) {
                Instant ts = Instant.ofEpochSecond(start + seq * step, random.nextInt(1000) * 1_000_000L);
                String offset = OFFSETS[random.nextInt(OFFSETS.length)];
                String level = LEVELS[random.nextInt(LEVELS.length)];
                StringBuilder line = new StringBuilder("{\"seq\":").append(seq);
                if (seq % 77 == 0) {
                    byDay.merge("__HIVE_DEFAULT_PARTITION__", 1L, Long::sum);
                } else if (seq % 50 == 0) {
                    line.append(",\"ts\":null");
                    byDay.merge("__HIVE_DEFAULT_PARTITION__", 1L, Long::sum);
                } else {
                    line.append(",\"ts\":\"").append(written(ts, offset)).append('"');
                    byDay.merge(ts.atOffset(ZoneOffset.UTC).toLocalDate().toString(), 1L, Long::sum);
                }
                if (level != null) {
                    line.append(",\"level\":\"").append(level).append('"');
                }
                byLevel.merge(level == null || level.isEmpty() ? "null" : level, 1L, Long::sum);
                line.append(",\"tags\":[\"t").append(seq % 3).append("\"],\"user\":{\"id\":").append(seq).append('}');
                line.append(",\"msg\":\"");
                for (int i = 0; i < padding; i++) {
                    line.append(Integer.toHexString(random.nextInt(16)));
                }
                out.append(line).append("\"}\n");
            }
        }
        return input;
    }

    private static String written(Instant ts, String offset) {
        if (offset.equals("Z")) {
            return DateTimeFormatter.ISO_INSTANT.format(ts);
        }
        return ts.atOffset(ZoneOffset.of(offset)).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    private static String hive(Path output) {
        return "read_parquet(" + DuckDb.literal(output.resolve("**").resolve("*.parquet")) + ", hive_partitioning = true)";
    }

    private Cli.Result convert(Path input, Path output, String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of("convert", input.toString(), "-o", output.toString(),
                "--schema", "seq BIGINT, ts TIMESTAMP_LTZ(3), level STRING, msg STRING, tags ARRAY<STRING>,"
                        + " user ROW<id BIGINT>", "--no-progress",
                "-p", "2"));
        args.addAll(List.of(flags));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void everyRowLandsInTheFolderOfItsUtcDay() throws Exception {
        Path input = logs(40_000, 5, 8);
        Path output = dir.resolve("out");
        Cli.Result result = convert(input, output, "--partition-by", "day(ts)", "--split-size", "256kb");
        assertEquals(0, result.exitCode(), result.err());

        Map<String, Long> folders = new TreeMap<>();
        DuckDb.query("SELECT coalesce(ts_day::VARCHAR, '__HIVE_DEFAULT_PARTITION__'), count(*) FROM " + hive(output)
                + " GROUP BY 1").forEach(row -> folders.put((String) row.get(0), ((Number) row.get(1)).longValue()));
        assertEquals(byDay, folders);
        assertEquals(0L, DuckDb.count(hive(output) + " WHERE ts IS NOT NULL AND"
                + " strftime(ts AT TIME ZONE 'UTC', '%Y-%m-%d') <> ts_day::VARCHAR"));
        assertEquals(40_000L, DuckDb.scalarLong("SELECT count(DISTINCT seq) FROM " + hive(output)));
        assertEquals(0L, DuckDb.count(hive(output) + " WHERE user.id <> seq OR tags <> ['t' || (seq % 3)]"));
        for (String day : byDay.keySet()) {
            assertTrue(Files.isDirectory(output.resolve("ts_day=" + day)), day);
        }

        JsonNode manifest = new ObjectMapper().readTree(output.resolve("_SUCCESS").toFile());
        assertEquals("day(ts)", manifest.get("partition_by").asText());
        Map<String, Long> listed = new TreeMap<>();
        manifest.get("partitions").fields().forEachRemaining(p -> listed.put(
                p.getKey().substring("ts_day=".length()), p.getValue().get("rows").asLong()));
        assertEquals(byDay, listed);
        assertEquals(40_000, manifest.get("rows_written").asLong());
    }

    @Test
    void aValueColumnIsTheFolderEscapedAndNotInTheFiles() throws Exception {
        Path input = logs(20_000, 2, 4);
        Path output = dir.resolve("out");
        Cli.Result result = convert(input, output, "--partition-by", "level", "--split-size", "256kb");
        assertEquals(0, result.exitCode(), result.err());

        assertTrue(Files.isDirectory(output.resolve("level=a%2Fb%3Dc")));
        assertTrue(Files.isDirectory(output.resolve("level=ü%25")));
        assertTrue(Files.isDirectory(output.resolve("level=__HIVE_DEFAULT_PARTITION__")));
        Map<String, Long> levels = new HashMap<>();
        DuckDb.query("SELECT coalesce(level, 'null'), count(*) FROM " + hive(output) + " GROUP BY 1")
                .forEach(row -> levels.put((String) row.get(0), ((Number) row.get(1)).longValue()));
        assertEquals(byLevel, levels);
        List<String> stored = DuckDb.strings("SELECT name FROM parquet_schema("
                + DuckDb.literal(output.resolve("*").resolve("*.parquet")) + ")");
        assertFalse(stored.contains("level"), stored.toString());
        assertTrue(stored.contains("msg"), stored.toString());
    }

    /** Past the cap on open files, partitions get more files, and no row is lost or doubled. */
    @Test
    void moreHoursThanOpenFilesKeepEveryRow() throws Exception {
        Path input = logs(30_000, 4, 4);
        Path output = dir.resolve("out");
        Cli.Result result = convert(input, output, "--partition-by", "hour(ts),level", "--max-open-partitions", "3",
                "--split-size", "64kb");
        assertEquals(0, result.exitCode(), result.err());
        assertEquals(30_000L, DuckDb.scalarLong("SELECT count(DISTINCT seq) FROM " + hive(output)));
        assertEquals(30_000L, DuckDb.count(hive(output)));
        assertEquals(0L, DuckDb.count(hive(output) + " WHERE ts IS NOT NULL AND"
                + " strftime(ts AT TIME ZONE 'UTC', '%Y-%m-%d-%H') <> ts_hour::VARCHAR"));
    }

    /**
     * Dozens of partitions interleaved row by row, in both writer tasks, with the launcher's
     * default heap: every part file open at once, each with a column writer for each of 32
     * columns, fit the heap, and each partition gets one file per task, not a new one per batch.
     */
    @Test
    void dozensOfInterleavedPartitionsOfWideRowsFitTheDefaultHeap() throws Exception {
        int partitions = 64;
        int columns = 30;
        int lines = 80_000;
        Path input = dir.resolve("wide.ndjson");
        StringBuilder schema = new StringBuilder("seq BIGINT, part STRING");
        for (int c = 0; c < columns; c++) {
            schema.append(", f").append(c).append(" STRING");
        }
        Map<String, Long> byPart = new TreeMap<>();
        Random random = new Random(11);
        try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int seq = 0; seq < lines; seq++) {
                String part = String.format(Locale.ROOT, "p%02d", random.nextInt(partitions));
                byPart.merge(part, 1L, Long::sum);
                out.append("{\"seq\":").append(Integer.toString(seq)).append(",\"part\":\"").append(part).append('"');
                for (int c = 0; c < columns; c++) {
                    out.append(",\"f").append(Integer.toString(c)).append("\":\"").append("abcdefgh".substring(c % 8))
                            .append('-').append(Integer.toString(random.nextInt(10 << (3 * (c % 6))))).append('"');
                }
                out.append("}\n");
            }
        }
        Path output = dir.resolve("out");
        ParqJar.Run run = ParqJar.launch(dir, "convert", input.toString(), "-o", output.toString(),
                "--schema", schema.toString(), "--partition-by", "part", "-p", "2", "--no-progress");
        assertEquals(0, run.exit(), run.err());

        Map<String, Long> folders = new TreeMap<>();
        DuckDb.query("SELECT part, count(*) FROM " + hive(output) + " GROUP BY 1")
                .forEach(row -> folders.put((String) row.get(0), ((Number) row.get(1)).longValue()));
        assertEquals(byPart, folders);
        String json = "read_json(" + DuckDb.literal(input) + ", format = 'newline_delimited', columns = {seq: 'BIGINT', "
                + "part: 'VARCHAR'" + IntStream.range(0, columns).mapToObj(c -> ", f" + c + ": 'VARCHAR'")
                        .collect(Collectors.joining()) + "})";
        String columnList = "seq, part" + IntStream.range(0, columns).mapToObj(c -> ", f" + c)
                .collect(Collectors.joining());
        assertEquals(0L, DuckDb.count("(SELECT " + columnList + " FROM " + json + " EXCEPT ALL SELECT " + columnList
                + " FROM " + hive(output) + ")"), "input rows missing from the partitions");
        assertEquals((long) lines, DuckDb.count(hive(output)));
        long files;
        try (Stream<Path> walk = Files.walk(output)) {
            files = walk.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
        }
        assertTrue(files <= 2L * partitions, files + " part files for " + partitions + " partitions in 2 tasks");
    }

    @Test
    void filesKeepToTheTargetSize() throws Exception {
        Path input = logs(600_000, 3, 160);
        assertTrue(Files.size(input) > 110L << 20, "the input is " + Files.size(input));
        Path output = dir.resolve("out");
        Cli.Result result = convert(input, output, "--target-file-size", "8mb", "--split-size", "16mb");
        assertEquals(0, result.exitCode(), result.err());
        List<Long> sizes;
        try (Stream<Path> files = Files.list(output)) {
            sizes = files.filter(f -> f.toString().endsWith(".parquet")).map(PartitionedOutputIT::size).toList();
        }
        assertTrue(sizes.size() >= 6, "files: " + sizes);
        assertTrue(sizes.stream().allMatch(s -> s <= 10L << 20), "files: " + sizes);
        assertTrue(sizes.stream().filter(s -> s < 7L << 20).count() <= 2, "a file short of the target per writer: " + sizes);
        assertEquals(600_000L, DuckDb.scalarLong("SELECT count(DISTINCT seq) FROM " + DuckDb.parquet(output)));
        assertEquals(600_000L, DuckDb.count(DuckDb.parquet(output)));
    }

    @Test
    void aPartitionOfAnUnknownColumnOrAWrongTypeIsAUsageError() throws Exception {
        Path input = logs(100, 1, 1);
        Cli.Result unknown = convert(input, dir.resolve("a"), "--partition-by", "day(time)");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("'day(time)' names no column"), unknown.err());
        Cli.Result wrongType = convert(input, dir.resolve("b"), "--partition-by", "hour(seq)");
        assertEquals(2, wrongType.exitCode());
        assertTrue(wrongType.err().contains("column 'seq' is BIGINT"), wrongType.err());
        Cli.Result badZone = convert(input, dir.resolve("c"), "--partition-by", "day(ts)", "--partition-time-zone", "Mars/Olympus");
        assertEquals(2, badZone.exitCode());
        assertTrue(badZone.err().contains("parq.partition.time-zone"), badZone.err());
        assertFalse(Files.exists(dir.resolve("a").resolve("_SUCCESS")));
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
