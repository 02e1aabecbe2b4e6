package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Instant;

import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each decoder through the whole parser: good values, nulls, missing keys, and each bad-value rule. */
class DecodersTest {

    /** Parses {"v": json} against column type; returns the value, or the bad-line reason. */
    private static Object one(String type, String json) {
        try (ParserHarness h = new ParserHarness("v " + type)) {
            h.parse("{\"v\":" + json + "}\n");
            if (!h.bad.isEmpty()) {
                assertEquals(0, h.parser.rows());
                return "BAD: " + h.onlyReason();
            }
            assertEquals(1, h.parser.rows());
            Object value = h.value("v", 0);
            return value == null ? "NULL" : value;
        }
    }

    @Test
    void nullAndMissingKeysAreNullForEveryType() {
        String[] types = {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10,2)",
                "STRING", "DATE", "TIMESTAMP(3)", "TIMESTAMP_LTZ(6)", "ROW<a INT>", "ARRAY<INT>", "MAP<STRING, INT>"};
        for (String type : types) {
            try (ParserHarness h = new ParserHarness("id INT, v " + type)) {
                h.parse("{\"id\":1,\"v\":null}\n{\"id\":2}\n");
                assertEquals(2, h.parser.rows(), type);
                assertNull(h.value("v", 0), type);
                assertNull(h.value("v", 1), type);
            }
        }
    }

    @Test
    void booleans() {
        assertEquals(true, one("BOOLEAN", "true"));
        assertEquals(false, one("BOOLEAN", "false"));
        assertEquals("BAD: field 'v': expected BOOLEAN, found number", one("BOOLEAN", "1"));
        assertEquals("BAD: field 'v': expected BOOLEAN, found string", one("BOOLEAN", "\"true\""));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "TINYINT|127|127", "TINYINT|-128|-128", "TINYINT|300|BAD: field 'v': 300 is out of range for TINYINT",
        "TINYINT|-129|BAD: field 'v': -129 is out of range for TINYINT",
        "SMALLINT|-32768|-32768", "SMALLINT|32768|BAD: field 'v': 32768 is out of range for SMALLINT",
        "INT|2147483647|2147483647", "INT|-2147483649|BAD: field 'v': -2147483649 is out of range for INT",
        "BIGINT|9223372036854775807|9223372036854775807", "BIGINT|-9223372036854775808|-9223372036854775808",
        "BIGINT|9223372036854775808|BAD: field 'v': 9223372036854775808 is out of range for BIGINT",
        "BIGINT|-0|0", "BIGINT|3.5|BAD: field 'v': 3.5 is not an integer",
        "BIGINT|1.0|BAD: field 'v': 1.0 is not an integer", "BIGINT|1e3|BAD: field 'v': 1e3 is not an integer",
        "BIGINT|\"5\"|BAD: field 'v': expected BIGINT, found string",
        "BIGINT|true|BAD: field 'v': expected BIGINT, found boolean",
        "INT|[1]|BAD: field 'v': expected INT, found array"})
    void integers(String type, String json, String expected) {
        assertEquals(expected, one(type, json).toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1", "-0.0", "0.1", "3.141592653589793", "1e10", "1E-5", "2.2250738585072014E-308", "4.9e-324",
        "1.7976931348623157e308", "123456789012345678901234567890", "0.30000000000000004", "9007199254740993",
        "-12.5e-3", "1e-400", "0.000001234"})
    void doublesAreCorrectlyRounded(String json) {
        assertEquals(Double.parseDouble(json), one("DOUBLE", json));
        float f = Float.parseFloat(json);
        if (!Float.isInfinite(f)) {
            assertEquals(f, one("FLOAT", json));
        }
    }

    @Test
    void doublesOutOfRangeOrNotNumbers() {
        assertEquals("BAD: field 'v': 1E400 is out of range for DOUBLE", one("DOUBLE", "1E400"));
        assertEquals("BAD: field 'v': -1e39 is out of range for FLOAT", one("FLOAT", "-1e39"));
        assertEquals("BAD: field 'v': expected DOUBLE, found string", one("DOUBLE", "\"1.5\""));
        assertEquals(-0.0, one("DOUBLE", "-0"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) one("DOUBLE", "-0")));
    }

    @Test
    void decimals() {
        assertEquals(new BigDecimal("12.30"), one("DECIMAL(5,2)", "12.3"));
        assertEquals(new BigDecimal("-999.99"), one("DECIMAL(5,2)", "-999.99"));
        assertEquals(new BigDecimal("120.00"), one("DECIMAL(5,2)", "1.2e2"));
        assertEquals(new BigDecimal("0.00"), one("DECIMAL(5,2)", "0e99999"));
        assertEquals(new BigDecimal("1.50"), one("DECIMAL(5,2)", "1.500000"));
        assertEquals("BAD: field 'v': 1.234 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1.234"));
        assertEquals("BAD: field 'v': 1000 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1000"));
        assertEquals("BAD: field 'v': 1e999999999 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1e999999999"));
        assertEquals("BAD: field 'v': 1e9999999999 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1e9999999999"));
        assertEquals("BAD: field 'v': 1e-9999999999 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1e-9999999999"));
        assertEquals(new BigDecimal("0.00"), one("DECIMAL(5,2)", "-0.000e-9999999999"));
        assertEquals("BAD: field 'v': 1e-999999999 does not fit DECIMAL(5,2)", one("DECIMAL(5,2)", "1e-999999999"));
        assertEquals("BAD: field 'v': expected DECIMAL(5,2), found string", one("DECIMAL(5,2)", "\"1.2\""));
        assertEquals(new BigDecimal("12345678901234567890123456789012345678"),
                one("DECIMAL(38,0)", "12345678901234567890123456789012345678"));
    }

    @Test
    void stringsKeepOtherValuesAsTheirJsonText() {
        assertEquals("plain", one("STRING", "\"plain\""));
        assertEquals("a\"b\\c/d\b\f\n\r\t", one("STRING", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""));
        assertEquals("\u0000x\u00e9\u20ac\uD83D\uDE00", one("STRING", "\"\\u0000x\\u00e9\\u20AC\\uD83D\\uDE00\""));
        assertEquals("h\u00e9 \u4e2d \uD83D\uDE00", one("STRING", "\"h\u00e9 \u4e2d \uD83D\uDE00\""));
        assertTrue(one("STRING", "\"\\uD800x\"").toString().startsWith("BAD: lone surrogate escape \\uD800 at column 7"));
        assertTrue(one("STRING", "\"\\uDC00\\uD800\"").toString().startsWith("BAD: lone surrogate escape \\uDC00 at column 7"));
        assertEquals("12.50", one("STRING", "12.50"));
        assertEquals("-1E+2", one("STRING", "-1E+2"));
        assertEquals("true", one("STRING", "true"));
        assertEquals("{ \"a\" : [1, 2] ,\"b\":\"\\n\"}", one("STRING", "{ \"a\" : [1, 2] ,\"b\":\"\\n\"}"));
        assertEquals("[]", one("STRING", "[]"));
        assertEquals("", one("STRING", "\"\""));
        assertEquals("x", one("VARCHAR(10)", "\"x\""));
    }

    @Test
    void longStringsGrowTheDataBuffer() {
        String big = "x".repeat(100_000);
        String escaped = "\\n".repeat(50_000);
        try (ParserHarness h = new ParserHarness("s STRING")) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                text.append("{\"s\":\"").append(i % 2 == 0 ? big : escaped).append("\"}\n");
            }
            h.parse(text.toString());
            assertEquals(50, h.parser.rows());
            assertEquals(big, h.value("s", 48));
            assertEquals("\n".repeat(50_000), h.value("s", 49));
        }
    }

    @Test
    void dates() {
        assertEquals((int) LocalDate.of(2024, 1, 31).toEpochDay(), one("DATE", "\"2024-01-31\""));
        assertEquals((int) LocalDate.of(2024, 2, 29).toEpochDay(), one("DATE", "\"2024-02-29\""));
        assertEquals((int) LocalDate.of(1900, 3, 1).toEpochDay(), one("DATE", "\"1900-03-01\""));
        assertEquals("BAD: field 'v': \"2023-02-29\" is not an ISO-8601 date (yyyy-mm-dd)", one("DATE", "\"2023-02-29\""));
        assertEquals("BAD: field 'v': \"2024-1-31\" is not an ISO-8601 date (yyyy-mm-dd)", one("DATE", "\"2024-1-31\""));
        assertEquals("BAD: field 'v': expected DATE, found number", one("DATE", "20240131"));
    }

    @Test
    void localTimestamps() {
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56, 789_000_000), one("TIMESTAMP(3)", "\"2024-01-31T12:34:56.789\""));
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56, 789_000_000), one("TIMESTAMP(3)", "\"2024-01-31 12:34:56.789999\""));
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56, 789_123_000), one("TIMESTAMP(6)", "\"2024-01-31T12:34:56.789123\""));
        assertEquals(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789), one("TIMESTAMP(9)", "\"1969-12-31T23:59:59.123456789\""));
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34), one("TIMESTAMP(3)", "\"2024-01-31T12:34\""));
        assertTrue(one("TIMESTAMP(3)", "\"2024-01-31T12:34:56Z\"").toString().startsWith("BAD: field 'v': \"2024-01-31T12:34:56Z\" has a time zone"));
        assertEquals("BAD: field 'v': \"2024-01-31T25:00:00\" is not an ISO-8601 date-time", one("TIMESTAMP(3)", "\"2024-01-31T25:00:00\""));
        assertEquals("BAD: field 'v': expected TIMESTAMP(3), found number", one("TIMESTAMP(3)", "1706700000000"));
    }

    @Test
    void instantTimestampsAreStoredInUtc() {
        Instant instant = Instant.parse("2024-01-31T10:34:56.789123456Z");
        try (ParserHarness h = new ParserHarness("a TIMESTAMP_LTZ(3), b TIMESTAMP_LTZ(6), c TIMESTAMP_LTZ(9)")) {
            h.parse("{\"a\":\"2024-01-31T12:34:56.789123456+02:00\",\"b\":\"2024-01-31T10:34:56.789123456Z\","
                    + "\"c\":\"2024-01-31T07:04:56.789123456-0330\"}\n");
            assertEquals(instant.toEpochMilli(), ((TimeStampMilliTZVector) h.column("a")).get(0));
            assertEquals(instant.toEpochMilli() * 1000 + 123, ((TimeStampMicroTZVector) h.column("b")).get(0));
            assertEquals(instant.getEpochSecond() * 1_000_000_000L + instant.getNano(),
                    ((TimeStampNanoTZVector) h.column("c")).get(0));
            assertEquals("UTC", ((org.apache.arrow.vector.types.pojo.ArrowType.Timestamp)
                    h.column("a").getField().getType()).getTimezone());
        }
        assertTrue(one("TIMESTAMP_LTZ(3)", "\"2024-01-31T12:34:56\"").toString()
                .startsWith("BAD: field 'v': \"2024-01-31T12:34:56\" has no time zone"));
        assertEquals("BAD: field 'v': \"2024-01-31T12:34:56+25:00\" is not an ISO-8601 date-time",
                one("TIMESTAMP_LTZ(3)", "\"2024-01-31T12:34:56+25:00\""));
    }

    /** A column holds no more fractional digits than its precision: the others are cut off, as Flink SQL's cast does. */
    @Test
    void theDeclaredPrecisionCutsTheFraction() {
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56), one("TIMESTAMP(0)", "\"2024-01-31T12:34:56.999\""));
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56, 900_000_000), one("TIMESTAMP(1)", "\"2024-01-31T12:34:56.999\""));
        assertEquals(LocalDateTime.of(2024, 1, 31, 12, 34, 56, 123_400_000), one("TIMESTAMP(4)", "\"2024-01-31T12:34:56.12345678\""));
        assertEquals(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 120_000_000), one("TIMESTAMP(2)", "\"1969-12-31T23:59:59.129\""));
        try (ParserHarness h = new ParserHarness("a TIMESTAMP_LTZ(0), b TIMESTAMP_LTZ(5), c TIMESTAMP_LTZ(7)")) {
            h.parse("{\"a\":\"1969-12-31T23:59:59.999Z\",\"b\":\"2024-01-31T10:34:56.123456789Z\","
                    + "\"c\":\"1969-12-31T23:59:59.123456789Z\"}\n");
            assertEquals(-1000, ((TimeStampMilliTZVector) h.column("a")).get(0));
            assertEquals(Instant.parse("2024-01-31T10:34:56.12345Z").toEpochMilli() * 1000 + 450,
                    ((TimeStampMicroTZVector) h.column("b")).get(0));
            assertEquals(-1_000_000_000L + 123_456_700, ((TimeStampNanoTZVector) h.column("c")).get(0));
        }
    }

    /** Nanoseconds reach down to the smallest instant a long holds, 1677-09-21T00:12:43.145224192Z, exactly. */
    @Test
    void nanosecondTimestampsReachTheEndsOfALong() {
        try (ParserHarness h = new ParserHarness("t TIMESTAMP_LTZ(9)")) {
            h.parse("{\"t\":\"1677-09-21T00:12:43.145224192Z\"}\n{\"t\":\"1677-09-21T00:12:43.5Z\"}\n"
                    + "{\"t\":\"1677-09-21T00:12:44Z\"}\n{\"t\":\"2262-04-11T23:47:16.854775807Z\"}\n");
            TimeStampNanoTZVector t = (TimeStampNanoTZVector) h.column("t");
            assertEquals(4, h.parser.rows(), h.bad.toString());
            assertEquals(Long.MIN_VALUE, t.get(0));
            assertEquals(-9_223_372_036_500_000_000L, t.get(1));
            assertEquals(-9_223_372_036_000_000_000L, t.get(2));
            assertEquals(Long.MAX_VALUE, t.get(3));
        }
        for (String outside : new String[] {"1677-09-21T00:12:43.145224191Z", "1677-09-21T00:12:43Z",
                "2262-04-11T23:47:16.854775808Z"}) {
            assertEquals("BAD: field 'v': \"" + outside + "\" is out of range for TIMESTAMP_LTZ(9)",
                    one("TIMESTAMP_LTZ(9)", "\"" + outside + "\""));
        }
    }

    @Test
    void commonUtcMillisShapeMatchesInstantParse() {
        String[] texts = {"2024-01-31T10:34:56.789Z", "2024-02-29T23:59:59.999Z", "1969-12-31T23:59:59.001Z",
            "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2000-03-01T00:00:00.000Z"};
        for (String text : texts) {
            try (ParserHarness h = new ParserHarness("a TIMESTAMP_LTZ(3), b TIMESTAMP_LTZ(6)")) {
                h.parse("{\"a\":\"" + text + "\",\"b\":\"" + text + "\"}\n");
                assertEquals(Instant.parse(text).toEpochMilli(), ((TimeStampMilliTZVector) h.column("a")).get(0), text);
                assertEquals(Instant.parse(text).toEpochMilli() * 1000, ((TimeStampMicroTZVector) h.column("b")).get(0), text);
            }
        }
    }

    @Test
    void commonUtcMillisShapeWithAnyWrongCharacterIsRejected() {
        String good = "2024-01-31T10:34:56.789Z";
        for (int i = 0; i < good.length(); i++) {
            String bad = good.substring(0, i) + 'x' + good.substring(i + 1);
            assertEquals("BAD: field 'v': \"" + bad + "\" is not an ISO-8601 date-time",
                    one("TIMESTAMP_LTZ(3)", "\"" + bad + "\""));
        }
        for (String bad : new String[] {"2023-02-29T00:00:00.000Z", "2024-13-01T00:00:00.000Z", "2024-00-01T00:00:00.000Z",
            "2024-04-31T00:00:00.000Z", "2024-01-31T24:00:00.000Z", "2024-01-31T23:60:00.000Z", "2024-01-31T23:59:60.000Z"}) {
            assertEquals("BAD: field 'v': \"" + bad + "\" is not an ISO-8601 date-time", one("TIMESTAMP_LTZ(3)", "\"" + bad + "\""));
        }
        assertTrue(one("TIMESTAMP(3)", "\"" + good + "\"").toString().startsWith("BAD: field 'v': \"" + good + "\" has a time zone"));
        assertEquals(LocalDateTime.of(2024, 1, 31, 10, 34, 56, 789_000_000), one("TIMESTAMP(3)", "\"2024-01-31T10:34:56.789\""));
    }

    @Test
    void rowsArraysAndMaps() {
        assertEquals("{\"a\":1,\"b\":\"x\"}", one("ROW<a INT, b STRING>", "{\"b\":\"x\",\"a\":1,\"c\":[[{}]]}").toString());
        assertEquals("{\"b\":\"{\\\"n\\\":1}\"}", one("ROW<a INT, b STRING>", "{\"b\":{\"n\":1}}").toString());
        assertEquals("BAD: field 'v': expected ROW, found array", one("ROW<a INT>", "[1]"));
        assertEquals("BAD: field 'v.a': expected INT, found string", one("ROW<a INT>", "{\"a\":\"1\"}"));
        assertEquals("[1,null,3]", one("ARRAY<INT>", "[1,null,3]").toString());
        assertEquals("[]", one("ARRAY<INT>", "[]").toString());
        assertEquals("[[1],[],null]", one("ARRAY<ARRAY<INT>>", "[[1],[],null]").toString());
        assertEquals("BAD: field 'v': expected ARRAY<INT>, found object", one("ARRAY<INT>", "{}"));
        assertEquals("BAD: field 'v[]': 1.5 is not an integer", one("ARRAY<INT>", "[1,1.5]"));
        assertEquals("[{\"key\":\"a\",\"value\":1},{\"key\":\"b\"}]",
                one("MAP<STRING, INT>", "{\"a\":1,\"b\":null}").toString());
        assertEquals("[]", one("MAP<STRING, INT>", "{}").toString());
        assertEquals("BAD: field 'v{}': expected INT, found string", one("MAP<STRING, INT>", "{\"a\":\"x\"}"));
        assertEquals("BAD: field 'v': expected MAP<STRING, INT>, found array", one("MAP<STRING, INT>", "[]"));
    }

    @Test
    void nestedDataAcrossManyRows() {
        try (ParserHarness h = new ParserHarness("u ROW<id BIGINT, tags ARRAY<STRING>>, m MAP<STRING, ARRAY<INT>>")) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 5000; i++) {
                text.append("{\"u\":{\"id\":").append(i).append(",\"tags\":[\"t").append(i).append("\",\"x\"]},")
                        .append("\"m\":{\"k").append(i).append("\":[").append(i).append("]}}\n");
            }
            h.parse(text.toString());
            assertEquals(1024, h.parser.rows());
            assertEquals("{\"id\":1000,\"tags\":[\"t1000\",\"x\"]}", h.value("u", 1000).toString());
            assertEquals("[{\"key\":\"k1023\",\"value\":[1023]}]", h.value("m", 1023).toString());
        }
    }

    @Test
    void largeMapsKeepTheLastOfRepeatedKeys() {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 100; i++) {
            json.append("\"k").append(i % 60).append("\":").append(i).append(',');
        }
        json.append("\"k\\u0030\":-1}");
        Object map = one("MAP<STRING, INT>", json.toString());
        String text = map.toString();
        assertEquals(60, text.split("\"key\"").length - 1, text);
        assertTrue(text.contains("{\"key\":\"k59\",\"value\":59}"), text);
        assertTrue(text.contains("{\"key\":\"k1\",\"value\":61}"), text);
        assertTrue(text.endsWith("{\"key\":\"k0\",\"value\":-1}]"), text);
    }
}
