package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Strict RFC 8259 and UTF-8: what is rejected, with which reason and at which offset, and what is not. */
class StrictnessTest {

    private static final String SCHEMA = "id BIGINT, v STRING";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {"id":1,"v":"<raw bytes>"} */
    private static byte[] inString(int... raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"id\":1,\"v\":\""));
        for (int b : raw) {
            out.write(b);
        }
        out.writeBytes(utf8("\"}"));
        return out.toByteArray();
    }

    private record Case(byte[] line, String reason) {}

    private static String lone(String unit, int column) {
        return "lone surrogate escape \\u" + unit + " at column " + column
                + ": it is not half of a surrogate pair, names no character, and cannot be stored as UTF-8";
    }

    private static Case bad(String line, String reason) {
        return new Case(utf8(line), reason);
    }

    private static Case bad(byte[] line, String reason) {
        return new Case(line, reason);
    }

    @Test
    void invalidLinesAreRejectedAtTheirOffsetWithASpecificReason() {
        List<Case> cases = List.of(
                bad("{\"id\":1,\"v\":NaN}", "invalid JSON at column 13: expected a value"),
                bad("{\"id\":1,\"v\":Infinity}", "invalid JSON at column 13: expected a value"),
                bad("{\"id\":1,\"v\":-Infinity}", "invalid JSON at column 14: invalid number"),
                bad("{\"id\":01}", "invalid JSON at column 8: expected ',' or '}'"),
                bad("{\"id\":1.}", "invalid JSON at column 9: invalid number: expected a digit after '.'"),
                bad("{\"id\":.5}", "invalid JSON at column 7: expected a value"),
                bad("{\"id\":1e}", "invalid JSON at column 9: invalid number: expected a digit in the exponent"),
                bad("{\"id\":+1}", "invalid JSON at column 7: expected a value"),
                bad("{\"id\":1,}", "invalid JSON at column 9: expected a string key"),
                bad("{\"id\":1,\"v\":[1,]}", "invalid JSON at column 16: expected a value"),
                bad("{'id':1}", "invalid JSON at column 2: expected a string key"),
                bad("{\"id\":1 /* c */}", "invalid JSON at column 9: expected ',' or '}'"),
                bad("{\"id\":1} // c", "trailing characters after the object at column 10"),
                bad("{\"id\":1}{}", "trailing characters after the object at column 9"),
                bad("{\"id\":1", "invalid JSON at column 8: expected ',' or '}'"),
                bad("{\"id\" 1}", "invalid JSON at column 7: expected ':'"),
                bad("{\"id\":tru}", "invalid JSON at column 10: expected a value"),
                bad("{\"id\":True}", "invalid JSON at column 7: expected a value"),
                bad("{\"v\":\"a\\x\"}", "invalid JSON at column 9: invalid escape in string"),
                bad("{\"v\":\"a\\u12G4\"}", "invalid JSON at column 12: invalid \\u escape"),
                bad("{\"v\":\"a\tb\"}", "invalid JSON at column 8: control character in string"),
                bad(inString(0x00), "invalid JSON at column 14: control character in string"),
                bad(inString(0x1F), "invalid JSON at column 14: control character in string"),
                bad("{\"v\":\"abc}", "invalid JSON at column 11: unterminated string"),
                bad("[1,2]", "top-level value is not an object"),
                bad("\"s\"", "top-level value is not an object"),
                bad("42", "top-level value is not an object"),
                bad("null", "top-level value is not an object"),
                bad("x", "invalid JSON at column 1: expected '{'"),
                bad(inString(0xC0, 0xAF), "invalid UTF-8 at column 14"),
                bad(inString(0xE0, 0x80, 0xAF), "invalid UTF-8 at column 14"),
                bad(inString(0xF0, 0x80, 0x80, 0xAF), "invalid UTF-8 at column 14"),
                bad(inString(0xED, 0xA0, 0x80), "invalid UTF-8 at column 14"),
                bad(inString(0xED, 0xBF, 0xBF), "invalid UTF-8 at column 14"),
                bad(inString(0xF4, 0x90, 0x80, 0x80), "invalid UTF-8 at column 14"),
                bad(inString(0xF5, 0x80, 0x80, 0x80), "invalid UTF-8 at column 14"),
                bad(inString(0xE2, 0x82), "invalid UTF-8 at column 14"),
                bad(inString(0x80), "invalid UTF-8 at column 14"),
                bad(inString(0xBF), "invalid UTF-8 at column 14"),
                bad(inString(0xFF), "invalid UTF-8 at column 14"),
                bad(inString('a', 0xC3), "invalid UTF-8 at column 15"),
                bad(new byte[] {'{', (byte) 0xFF, '}'}, "invalid UTF-8 at column 2"),
                bad("{\"id\":1} \u00e9", "trailing characters after the object at column 10"),
                bad("{\"id\":\"1\"}", "field 'id': expected BIGINT, found string"),
                bad("{\"id\":1.5}", "field 'id': 1.5 is not an integer"),
                bad("{\"v\":" + "[".repeat(1001) + "]".repeat(1001) + "}", "nesting deeper than 1000"),
                // A surrogate escape that is not half of a pair names no character: stored, it
                // would have to be replaced, so the line is bad, wherever the escape stands.
                bad("{\"id\":1,\"v\":\"a\\ud800b\"}", lone("D800", 15)),
                bad("{\"id\":1,\"v\":\"\\uDFAA\"}", lone("DFAA", 14)),
                bad("{\"id\":1,\"v\":\"\\uD800\\u0041\"}", lone("D800", 14)),
                bad("{\"id\":1,\"v\":\"\\uDBFF\\uDBFF\"}", lone("DBFF", 14)),
                bad("{\"id\":1,\"v\":\"\\uD800\"}", lone("D800", 14)),
                bad("{\"a\\uDC00\":1}", lone("DC00", 4)),
                bad("{\"id\":1,\"zz\":[\"\\uD800\"]}", lone("D800", 16)));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<Long> offsets = new ArrayList<>();
        file.writeBytes(utf8("{\"id\":0}\n"));
        for (Case c : cases) {
            offsets.add((long) file.size());
            file.writeBytes(c.line());
            file.writeBytes(utf8("\n{\"id\":0}\n"));
        }
        try (ParserHarness h = new ParserHarness(SCHEMA)) {
            h.parse(file.toByteArray());
            assertEquals(cases.size(), h.bad.size());
            for (int i = 0; i < cases.size(); i++) {
                ParserHarness.Bad bad = h.bad.get(i);
                assertEquals(cases.get(i).reason(), bad.reason(), new String(cases.get(i).line(), StandardCharsets.ISO_8859_1));
                assertEquals(offsets.get(i), bad.offset(), bad.reason());
            }
            assertEquals(cases.size() + 1, h.parser.rows());
            assertEquals(2L * cases.size() + 1, h.parser.records());
            assertEquals(cases.size(), h.parser.rejected());
        }
    }

    @Test
    void validEdgeCasesAreAccepted() {
        String[] lines = {
            "{}",
            " \t{ \"id\" : 1 , \"v\" : \"x\" } \t\r",
            "{\"v\":\"\\u0000\"}",
            "{\"v\":\"\\uD834\\uDD1E \\\\ \\/ \\\" \\b\\f\\n\\r\\t\"}",
            "{\"v\":\"\u00e9\u4e2d\uD83D\uDE00\u007f\"}",
            "{\"v\":1E400}",
            "{\"v\":-0}",
            "{\"v\":-0.0e-0}",
            "{\"v\":123456789012345678901234567890}",
            "{\"id\":-9223372036854775808}",
            "{\"x\":" + "[".repeat(999) + "]".repeat(999) + "}",
            "{\"x\":" + "{\"a\":".repeat(998) + "1" + "}".repeat(998) + "}",
            "{\"v\":[]}", "{\"v\":{}}", "{\"v\":[[]]}", "{\"\":1}", "{\"v\":null,\"id\":null}",
        };
        try (ParserHarness h = new ParserHarness(SCHEMA)) {
            h.parse(String.join("\n", lines) + "\n");
            assertTrue(h.bad.isEmpty(), h.bad.toString());
            assertEquals(lines.length, h.parser.rows());
            assertEquals("\u0000", h.value("v", 2));
            assertEquals("\uD834\uDD1E \\ / \" \b\f\n\r\t", h.value("v", 3));
            assertEquals("1E400", h.value("v", 5));
            assertEquals(-9223372036854775808L, h.value("id", 9));
        }
    }

    @Test
    void hundredThousandDeepIsRejectedWithoutStackOverflow() {
        String line = "{\"v\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}\n";
        try (ParserHarness h = new ParserHarness(SCHEMA)) {
            h.parse(line + "{\"id\":7}\n");
            assertEquals("nesting deeper than 1000", h.onlyReason());
            assertEquals(1, h.parser.rows());
            assertEquals(7L, h.value("id", 0));
        }
    }
}
