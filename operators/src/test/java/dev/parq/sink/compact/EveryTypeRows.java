package dev.parq.sink.compact;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parq.schema.TableSchema;
import org.apache.flink.table.types.logical.RowType;

/**
 * A schema with every column type parq writes, nested ones inside each other (a ROW in an ARRAY in
 * a MAP), and rows that are a pure function of their number: each column cycles through its own
 * list of values (null, the extremes of its type, empty strings, lists and maps, a long string), the
 * lists of different lengths so that rows combine them differently.
 */
final class EveryTypeRows {

    static final RowType ROW_TYPE = TableSchema.parse("b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT,"
                    + " f FLOAT, d DOUBLE, dec9 DECIMAL(9, 2), dec18 DECIMAL(18, 4), dec38 DECIMAL(38, 10),"
                    + " s STRING, dt DATE, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
                    + " tz3 TIMESTAMP_LTZ(3), tz6 TIMESTAMP_LTZ(6), tz9 TIMESTAMP_LTZ(9),"
                    + " r ROW<a BIGINT, inner ROW<s STRING, l ARRAY<INT>>>, al ARRAY<BIGINT>, aa ARRAY<ARRAY<STRING>>,"
                    + " m MAP<STRING, ARRAY<ROW<x INT, tags ARRAY<STRING>>>>, _unknown MAP<STRING, STRING>")
            .rowType();

    static final String LONG_STRING = "long ".repeat(20_000) + "é";

    private static final BigDecimal DEC38_MAX = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 10);
    /** 0001-01-01 and 9999-12-31 23:59:59.999..., in days, milliseconds and microseconds since the epoch. */
    private static final int FIRST_DAY = -719_162;
    private static final int LAST_DAY = 2_932_896;
    private static final long FIRST_MILLI = -62_135_596_800_000L;
    private static final long LAST_MILLI = 253_402_300_799_999L;

    private static final List<List<Object>> CYCLES = List.of(
            values(null, true, false),
            values(null, Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0),
            values(null, Short.MIN_VALUE, Short.MAX_VALUE, (short) -1, (short) 7),
            values(null, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 12_345),
            values(null, Long.MIN_VALUE, Long.MAX_VALUE, -1L, 1_000_000_000_000L, 42L),
            values(null, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, Float.MIN_VALUE,
                    Float.MAX_VALUE, 1.5f),
            values(null, Double.NaN, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, -2.25),
            values(null, new BigDecimal("9999999.99"), new BigDecimal("-9999999.99"), new BigDecimal("0.01")),
            values(null, new BigDecimal("99999999999999.9999"), new BigDecimal("-99999999999999.9999"),
                    new BigDecimal("0.0000"), new BigDecimal("-0.0001")),
            values(null, DEC38_MAX, DEC38_MAX.negate(), new BigDecimal("0.0000000001"), new BigDecimal("-1.0000000000")),
            values(null, "", "héllo wörld ✓ 日本語 😀", LONG_STRING, "a\u0000b", "plain"),
            values(null, FIRST_DAY, LAST_DAY, 0, 19_000),
            values(null, FIRST_MILLI, LAST_MILLI, 0L, 1_700_000_000_123L),
            values(null, FIRST_MILLI * 1000, LAST_MILLI * 1000 + 999, -1L, 1_700_000_000_123_456L),
            values(null, -9_000_000_000_000_000_000L, 9_000_000_000_000_000_000L, 1L, 1_700_000_000_123_456_789L),
            values(null, FIRST_MILLI, LAST_MILLI, -1L),
            values(null, FIRST_MILLI * 1000, LAST_MILLI * 1000 + 999, 1_700_000_000_123_456L, 0L),
            values(null, -9_000_000_000_000_000_000L, 9_000_000_000_000_000_000L, 0L),
            values(null, row("a", null, "inner", null), row("a", 7L, "inner", row("s", null, "l", null)),
                    row("a", Long.MAX_VALUE, "inner", row("s", "", "l", List.of())),
                    row("a", -3L, "inner", row("s", "x", "l", values(1, null, 3)))),
            values(null, List.of(), values((Object) null), List.of(Long.MIN_VALUE, Long.MAX_VALUE),
                    List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L)),
            values(null, List.of(), List.of(List.of()), values(null, values("a", null, "")),
                    List.of(List.of("x"), List.of("y", LONG_STRING))),
            values(null, map(), map("k", null), map("k", List.of()),
                    map("k1", values(null, row("x", null, "tags", null), row("x", 1, "tags", List.of())),
                            "k2", List.of(row("x", Integer.MIN_VALUE, "tags", values("t", null, ""))))),
            values(null, map(), map("extra", "{\"n\": 1}", "gone", null), map("a.b", "\"x\"")));

    private EveryTypeRows() {}

    /** Rows {@code first ..< first + count}. */
    static List<List<Object>> rows(int first, int count) {
        List<List<Object>> rows = new ArrayList<>(count);
        for (int g = first; g < first + count; g++) {
            List<Object> row = new ArrayList<>(CYCLES.size());
            for (int c = 0; c < CYCLES.size(); c++) {
                List<Object> cycle = CYCLES.get(c);
                row.add(cycle.get((g + c) % cycle.size()));
            }
            rows.add(row);
        }
        return rows;
    }

    private static List<Object> values(Object... values) {
        return Arrays.asList(values);
    }

    /** A ROW's fields, or a MAP's entries in order: names and values in turn. */
    private static Map<String, Object> row(Object... namesAndValues) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        return row(keysAndValues);
    }
}
