package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.testing.DuckDb;

/**
 * Timestamps as real logs spell them, converted with an inferred schema and with explicit ones,
 * read back value by value by DuckDB: the precision is the most digits seen, so no digit is lost;
 * an explicit lower precision cuts the extra digits; zoned text is the instant, unzoned the local time.
 */
class TimestampsIT {

    @TempDir
    Path dir;

    /** One spelling per row: text, and the instant (or local time, read as UTC) it is. */
    private record Spelling(String text, Instant value) {}

    private static final List<Spelling> ZONED = List.of(
            new Spelling("2023-02-28T11:34:04.590544+0000", Instant.parse("2023-02-28T11:34:04.590544Z")),
            new Spelling("2023-02-28 11:34:04.5+01:00", Instant.parse("2023-02-28T10:34:04.500Z")),
            new Spelling("2023-02-28T11:34:04Z", Instant.parse("2023-02-28T11:34:04Z")),
            new Spelling("2023-02-28t11:34:04.000001z", Instant.parse("2023-02-28T11:34:04.000001Z")),
            new Spelling("2023-02-28T11:34:04,25-05", Instant.parse("2023-02-28T16:34:04.250Z")),
            new Spelling("2023-02-28T11:34-0330", Instant.parse("2023-02-28T15:04:00Z")),
            new Spelling("1969-12-31T23:59:59.999999+00:00", Instant.parse("1969-12-31T23:59:59.999999Z")));

    private static final List<Spelling> LOCAL = List.of(
            new Spelling("2023-02-28 11:34:04.123456789", local("2023-02-28T11:34:04.123456789")),
            new Spelling("2023-02-28T11:34:04", local("2023-02-28T11:34:04")),
            new Spelling("2023-02-28t11:34", local("2023-02-28T11:34")),
            new Spelling("2023-02-28 11:34:04,5", local("2023-02-28T11:34:04.5")),
            new Spelling("1969-12-31 23:59:59.000000001", local("1969-12-31T23:59:59.000000001")),
            new Spelling("2023-02-28T11:34:04.1", local("2023-02-28T11:34:04.1")),
            new Spelling("2262-04-10T00:00:00.123456789", local("2262-04-10T00:00:00.123456789")));

    private static Instant local(String text) {
        return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    }

    private Path input() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < ZONED.size(); i++) {
            lines.append("{\"id\":").append(i).append(",\"zoned\":\"").append(ZONED.get(i).text())
                    .append("\",\"local\":\"").append(LOCAL.get(i).text()).append("\"}\n");
        }
        Path input = dir.resolve("ts.ndjson");
        Files.writeString(input, lines, StandardCharsets.UTF_8);
        return input;
    }

    @Test
    void inferredPrecisionKeepsEveryDigit() throws Exception {
        Path input = input();
        Path output = dir.resolve("out");
        Cli.Result run = Cli.run("convert", input.toString(), "-o", output.toString(), "--no-progress");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("id BIGINT, zoned TIMESTAMP_LTZ(6), `local` TIMESTAMP(9)"), run.out());
        List<List<Object>> rows = DuckDb.query("SELECT id, epoch_us(zoned), epoch_ns(\"local\") FROM "
                + DuckDb.parquet(output) + " ORDER BY id");
        for (int i = 0; i < ZONED.size(); i++) {
            assertEquals(micros(ZONED.get(i).value()), ((Number) rows.get(i).get(1)).longValue(), ZONED.get(i).text());
            assertEquals(nanos(LOCAL.get(i).value()), ((Number) rows.get(i).get(2)).longValue(), LOCAL.get(i).text());
        }
        assertEquals(List.of(List.of("TIMESTAMP WITH TIME ZONE", "TIMESTAMP_NS")),
                DuckDb.query("SELECT typeof(zoned), typeof(\"local\") FROM " + DuckDb.parquet(output) + " LIMIT 1"));
    }

    /** An explicit precision lower than the text's cuts the extra digits, towards the past. */
    @Test
    void anExplicitPrecisionCutsTheExtraDigits() throws Exception {
        Path input = input();
        Path output = dir.resolve("out");
        Cli.Result run = Cli.run("convert", input.toString(), "-o", output.toString(), "--no-progress",
                "--schema", "id BIGINT, zoned TIMESTAMP_LTZ(1), `local` TIMESTAMP(0)");
        assertEquals(0, run.exitCode(), run.err());
        List<List<Object>> rows = DuckDb.query("SELECT id, epoch_ms(zoned), epoch_ms(\"local\") FROM "
                + DuckDb.parquet(output) + " ORDER BY id");
        List<Long> zoned = new ArrayList<>();
        List<Long> local = new ArrayList<>();
        for (List<Object> row : rows) {
            zoned.add(((Number) row.get(1)).longValue());
            local.add(((Number) row.get(2)).longValue());
        }
        List<Long> expectedZoned = new ArrayList<>();
        List<Long> expectedLocal = new ArrayList<>();
        for (int i = 0; i < ZONED.size(); i++) {
            expectedZoned.add(Math.floorDiv(micros(ZONED.get(i).value()), 100_000L) * 100);
            expectedLocal.add(Math.floorDiv(nanos(LOCAL.get(i).value()), 1_000_000_000L) * 1000);
        }
        assertEquals(expectedZoned, zoned);
        assertEquals(expectedLocal, local);
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    private static long nanos(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    }
}
