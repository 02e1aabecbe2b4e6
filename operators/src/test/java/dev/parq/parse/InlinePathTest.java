package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import dev.parq.parse.decode.DecoderFactory;
import dev.parq.json.ByteScan;
import dev.parq.json.Tokenizer;

/**
 * The inline path must be invisible: whichever path a line takes, the rows, their values, the bad
 * lines (offset and reason) and the unknown-key counts are those of the tape path alone. Each test
 * parses the same bytes with and without the inline path and compares everything, and checks that
 * the lines meant for the inline path really took it.
 */
class InlinePathTest {

    private static final String SCHEMA = "ts TIMESTAMP_LTZ(3), lt TIMESTAMP(6), d DATE, b BOOLEAN, i8 TINYINT,"
            + " i16 SMALLINT, i INT, n BIGINT, f FLOAT, x DOUBLE, amount DECIMAL(10,2), s STRING, `naïve` STRING,"
            + " u ROW<id BIGINT, name STRING, tags ARRAY<STRING>>, arr ARRAY<INT>, m MAP<STRING, INT>,"
            + " rs ARRAY<ROW<a INT, b STRING>>";

    private static final String COMMON = "{\"ts\":\"2024-01-31T12:34:56.789Z\",\"lt\":\"2024-01-31T12:34:56.123456\","
            + "\"d\":\"2024-02-29\",\"b\":true,\"i8\":-128,\"i16\":32767,\"i\":-2147483648,\"n\":9223372036,"
            + "\"f\":1.5,\"x\":-12.5e-3,\"s\":\"plain text\",\"naïve\":\"ü\",\"u\":{\"id\":1,\"name\":\"n\","
            + "\"tags\":[\"a\",\"b\"]},\"arr\":[1,2,3],\"rs\":[{\"a\":1,\"b\":\"x\"},{\"a\":null},{}]}";

    /** Lines the inline path takes. */
    private static final String[] INLINE = {
        COMMON,
        "{\"rs\":[],\"arr\":[],\"u\":{},\"naïve\":\"\",\"s\":\"\",\"x\":0,\"f\":-0.0,\"n\":-0,\"i\":0,\"i16\":-1,"
                + "\"i8\":127,\"b\":false,\"d\":\"1970-01-01\",\"lt\":\"1970-01-01 00:00\",\"ts\":\"1970-01-01T00:00Z\"}",
        " \t{ \"n\" : 1 ,\t\"s\" : \"x\" , \"arr\" : [ 1 , null , 3 ] , \"u\" : { \"id\" : 2 } } \t\r",
        "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t \\uD83D\\uDE00\\u0000\\uDBFF\\uDFAA\",\"n\":2}",
        "{\"s\":\"café 東京 😀 Получен\",\"naïve\":\"ë\",\"u\":{\"name\":\"Zürich\",\"tags\":[\"€\",\"✓\"]}}",
        "{\"ts\":null,\"lt\":null,\"d\":null,\"b\":null,\"i8\":null,\"i16\":null,\"i\":null,\"n\":null,\"f\":null,"
                + "\"x\":null,\"amount\":null,\"s\":null,\"naïve\":null,\"u\":null,\"arr\":null,\"m\":null,\"rs\":null}",
        "{}",
        "{\"s\":12.5e+3,\"naïve\":true,\"u\":{\"name\":false,\"tags\":[-0,1E400,\"x\",null]}}",
        "{\"ts\":\"2024-01-31T12:34:56+02:00\",\"lt\":\"2024-01-31t12:34:56,5\"}",
        "{\"n\":-922337203685477580,\"x\":1.7976931348623157e308,\"f\":3.4028235e38,\"i\":2147483647}",
        "{\"s\":\"" + "0123456789abcdef".repeat(5) + "\"}",
        "{\"n\":1,\"zz\":{\"a\":[1,{\"b\":null,\"c\":[[],{},\"\\u00e9\\n\",-1.5e3,true]}]},\"zz\":2}",
        "{\"amount\":-0.5e1,\"m\":{\"k\":1, \"é\" : null ,\"\":-3,\"k2\":4}}",
        "{\"amount\":0e9999999999,\"m\":{}}",
        "{\"rs\":[{\"a\":1,\"extra\":2}],\"u\":{\"déjà\":[],\"id\":3, \"x\" : { } }}",
    };

    /** Valid lines the inline path leaves to the tape path. */
    private static final String[] FALLBACK = {
        "{\"n\":1,\"n\":2}",
        "{\"\\u0073\":\"escaped key\"}",
        "{\"amount\":12.34,\"m\":{\"k\":1,\"k\":2}}",
        "{\"m\":{\"\\u006b\":1,\"k\":2}}",
        "{\"m\":{" + "\"k\":1,".repeat(40) + "\"k\":2}}",
        "{\"n\":9223372036854775807}",
        "{\"n\":-9223372036854775808}",
        "{\"s\":{\"a\":[1]},\"naïve\":[1,\"x\"]}",
        "{\"ts\":\"2024-01-31T12:34:56.789\\u005A\"}",
    };

    /** Bad lines; the inline path gives up on all of them, the tape path words the reason. */
    private static final String[] BAD = {
        "{\"n\":1.0}", "{\"n\":1e3}", "{\"n\":01}", "{\"n\":-}", "{\"n\":\"1\"}", "{\"n\":9223372036854775808}",
        "{\"i8\":128}", "{\"i8\":-129}", "{\"i16\":32768}", "{\"i\":2147483648}", "{\"x\":1e400}", "{\"f\":1e39}",
        "{\"x\":1.}", "{\"x\":.5}", "{\"x\":1e}", "{\"x\":+1}", "{\"x\":NaN}", "{\"b\":tru}", "{\"b\":nul}",
        "{\"ts\":\"2024-01-31T12:34:56.789\"}", "{\"lt\":\"2024-01-31T12:34:56.789Z\"}", "{\"d\":\"2024-02-30\"}",
        "{\"ts\":\"2024-13-31T12:34:56.789Z\"}", "{\"ts\":1}", "{\"d\":\"2024-01-31T00:00\"}",
        "{\"n\":1,}", "{\"n\":1", "{\"n\" 1}", "{\"n\":1}x", "{\"n\":1}{}", "{\"arr\":[1,]}", "{\"arr\":[1 2]}",
        "{\"u\":{\"id\":1}", "{\"u\":[1]}", "{\"arr\":{}}", "{\"s\":\"a\\x\"}", "{\"s\":\"a\\u12G4\"}",
        "{\"s\":\"a\tb\"}", "{\"s\":\"abc}", "{\"s\":'a'}", "{'s':1}", "[1]", "{\"n\":1 /* c */}",
        "{\"u\":{\"id\":\"x\"},\"n\":1}", "{\"rs\":[{\"a\":1},{\"a\":\"x\"}]}",
        "{\"m\":{\"k\":1,}}", "{\"m\":{\"k\":\"x\"}}", "{\"m\":{\"k\" 1}}", "{\"m\":{1:1}}", "{\"m\":[]}",
        "{\"amount\":1.234}", "{\"amount\":1e9999999999}", "{\"amount\":\"1\"}",
        "{\"zz\":[1,]}", "{\"zz\":{\"a\" 1}}", "{\"zz\":{\"a\":1,}}", "{\"zz\":[1}", "{\"zz\":\"\\x\"}", "{\"zz\":01}",
        "{\"zz\":tru}", "{\"zz\":{1:2}}", "{\"zz\":[1]]}", "{\"zz\":{\"a\":1}}}", "{\"zz\":}", "{\"zz\" [1]}",
    };

    private record Outcome(String table, List<Integer> elementCounts, List<ParserHarness.Bad> bad, String unknown,
            long records, long rejected, long inlineRows) {}

    private static Outcome parse(byte[] content, boolean inline) {
        try (ParserHarness h = new ParserHarness(SCHEMA, 100_000, inline)) {
            assertEquals(content.length, h.parse(content));
            List<Integer> elementCounts = new ArrayList<>();
            for (FieldVector v : h.parser.batch().getFieldVectors()) {
                if (v instanceof ListVector list) {
                    elementCounts.add(list.getDataVector().getValueCount());
                }
            }
            return new Outcome(h.parser.batch().contentToTSVString(), elementCounts, h.bad,
                    new java.util.TreeMap<>(h.parser.unknownFields()).toString(), h.parser.records(),
                    h.parser.rejected(), h.parser.inlineRows());
        }
    }

    /** Parses content both ways, asserts they agree, and returns the rows the inline path decoded. */
    private static long sameBothWays(byte[] content) {
        Outcome tape = parse(content, false);
        Outcome inline = parse(content, true);
        assertEquals(0, tape.inlineRows());
        assertEquals(tape.bad(), inline.bad());
        assertEquals(tape.table(), inline.table());
        assertEquals(tape.elementCounts(), inline.elementCounts());
        assertEquals(tape.unknown(), inline.unknown());
        assertEquals(tape.records(), inline.records());
        assertEquals(tape.rejected(), inline.rejected());
        return inline.inlineRows();
    }

    private static long sameBothWays(String content) {
        return sameBothWays(content.getBytes(StandardCharsets.UTF_8));
    }

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    @Test
    void commonLinesTakeTheInlinePath() {
        assertEquals(INLINE.length, sameBothWays(lines(INLINE)));
    }

    @Test
    void otherValidLinesFallBackWithTheSameResult() {
        for (String line : FALLBACK) {
            assertEquals(2, sameBothWays(lines(COMMON, line, COMMON, COMMON)), line);
        }
    }

    @Test
    void badLinesAreRejectedAsByTheTapePath() {
        for (String line : BAD) {
            assertEquals(2, sameBothWays(lines(COMMON, line, COMMON, COMMON)), line);
        }
    }

    @Test
    void aLineGivenUpHalfwayLeavesNoTrace() {
        String half = "{\"s\":\"written first\",\"u\":{\"name\":\"n\",\"tags\":[\"a\",\"b\",\"c\"]},\"arr\":[1,2,3,\"x\"]}";
        String halfValid = "{\"s\":\"written first\",\"u\":{\"tags\":[\"a\",\"b\",\"c\"]},\"rs\":[{\"a\":1},{\"a\":1,\"a\":2}]}";
        assertEquals(2, sameBothWays(lines(COMMON, half, COMMON, "{\"n\":5}")));
        assertEquals(2, sameBothWays(lines(COMMON, halfValid, COMMON, "{\"n\":5}")));
    }

    @Test
    void blankLinesDoNotHoldTheInlinePathBack() {
        assertEquals(4, sameBothWays(lines(COMMON, "", " \t\r", COMMON, "", COMMON, "  ", COMMON)));
    }

    @Test
    void keyOrderChangesMidFile() {
        String a = "{\"n\":1,\"s\":\"a\",\"b\":true,\"u\":{\"id\":1,\"name\":\"x\"}}";
        String b = "{\"u\":{\"name\":\"y\",\"id\":2},\"b\":false,\"s\":\"b\",\"n\":2}";
        String c = "{\"s\":\"c\",\"n\":3}";
        String d = "{\"s\":\"d\",\"n\":4,\"i\":4,\"x\":4.5}";
        assertEquals(10, sameBothWays(lines(a, a, b, b, a, c, d, c, b, a)));
    }

    @Test
    void keysAreMatchedWholeNotByPrefix() {
        String schema = "a BIGINT, ab BIGINT, abcdefgh BIGINT, abcdefghi BIGINT";
        String content = lines("{\"a\":1,\"ab\":2,\"abcdefgh\":3,\"abcdefghi\":4}", "{\"abcdefghi\":4,\"abcdefgh\":3,\"ab\":2,\"a\":1}",
                "{\"abc\":1}", "{\"abcdefghij\":1}", "{\"abcdefgX\":1}", "{\"abcdefghX\":1}", "{\"\":1}");
        try (ParserHarness inline = new ParserHarness(schema, 100, true);
                ParserHarness tape = new ParserHarness(schema, 100, false)) {
            inline.parse(content);
            tape.parse(content);
            assertEquals(tape.parser.batch().contentToTSVString(), inline.parser.batch().contentToTSVString());
            assertEquals(tape.parser.unknownFields(), inline.parser.unknownFields());
            assertEquals(5, inline.parser.unknownFields().size());
            assertTrue(inline.parser.inlineRows() >= 2);
        }
    }

    /**
     * Keys of one to twenty bytes, with and without whitespace before the colon, in lines cut
     * short by the end of the range, so that every key comparison meets the range's end.
     */
    @Test
    void keysOfEveryLengthUpToTheEndOfTheRange() {
        StringBuilder schema = new StringBuilder("`q\"t` STRING");
        List<String> names = new ArrayList<>();
        for (int n = 1; n <= 20; n++) {
            String name = "abcdefghijklmnopqrstuvwxyz".substring(0, n);
            names.add(name);
            schema.append(", ").append(name).append(" INT");
        }
        StringBuilder text = new StringBuilder("{\"q\\\"t\":\"escaped name\"}\n");
        for (String name : names) {
            text.append("{\"").append(name).append("\":1,\"q\":2}\n");
            text.append("{\"").append(name).append("\" \t:1}\n");
            text.append("{\"").append(name).append("x\":1}\n");
            text.append("{\"").append(name, 0, name.length() - 1).append("\":1}\n");
        }
        for (String name : names) {
            for (String line : new String[] {"{\"" + name + "\":7}", "{\"" + name + "\" :7}", "{\"" + name + "\":7", "{\"" + name}) {
                String content = text + line;
                try (ParserHarness inline = new ParserHarness(schema.toString(), 1000, true);
                        ParserHarness tape = new ParserHarness(schema.toString(), 1000, false)) {
                    inline.parse(content);
                    tape.parse(content);
                    assertEquals(tape.parser.batch().contentToTSVString(), inline.parser.batch().contentToTSVString(), line);
                    assertEquals(tape.bad, inline.bad, line);
                    assertEquals(tape.parser.unknownFields(), inline.parser.unknownFields(), line);
                    assertTrue(inline.parser.inlineRows() >= names.size() / 2, line);
                }
            }
        }
    }

    /**
     * The parser copies the range into a window of 64 KiB, then 1 MiB, at a time. A line cut by the
     * window's end is tried again whole once the window has moved: it takes the inline path like
     * the others, and nothing differs from the tape path's result.
     */
    @Test
    void linesCutByTheWindowStillTakeTheInlinePath() {
        int lines = 0;
        StringBuilder text = new StringBuilder();
        while (text.length() < (3 << 20)) {
            text.append(INLINE[lines % INLINE.length]).append('\n');
            lines++;
        }
        assertEquals(lines, sameBothWays(text.toString()));
    }

    /**
     * The window ends after its last whole line: lines shorter than the window are never cut by
     * it (so the decoders' checks for its end are not taken), and a longer line still grows it.
     */
    @Test
    void theWindowEndsAfterALineSoOnlyLongerLinesAreReadAgain() {
        StringBuilder text = new StringBuilder();
        while (text.length() < (3 << 20)) {
            text.append(INLINE[text.length() % INLINE.length]).append('\n');
        }
        byte[] content = text.toString().getBytes(StandardCharsets.UTF_8);
        try (ParserHarness h = new ParserHarness(SCHEMA, 1_000_000, true)) {
            assertEquals(content.length, h.parse(content));
            assertEquals(0, h.parser.windowRefills());
            assertEquals(h.parser.records(), h.parser.inlineRows());
        }
        String longLine = "{\"s\":\"" + "x".repeat(1_500_000) + "\"}";
        byte[] withLongLine = lines(COMMON, longLine, COMMON).getBytes(StandardCharsets.UTF_8);
        try (ParserHarness h = new ParserHarness(SCHEMA, 100, true)) {
            assertEquals(withLongLine.length, h.parse(withLongLine));
            assertEquals(3, h.parser.records());
            assertTrue(h.parser.windowRefills() > 0);
            assertTrue(h.parser.batch().contentToTSVString().contains("x".repeat(1_500_000)));
        }
    }

    @Test
    void aLineLongerThanTheParserTakesFailsNamingItsOffsetAndLengthWhateverTheHandler() {
        int limit = 3_000_000;
        String first = COMMON + "\n";
        int firstBytes = first.getBytes(StandardCharsets.UTF_8).length;
        for (boolean inline : new boolean[] {true, false}) {
            // The limit counts the line feed; a last line without one may take all of it.
            for (String text : new String[] {first + string(limit - 1) + "\n" + first, first + string(limit)}) {
                try (ParserHarness h = new ParserHarness(SCHEMA, 100, inline, limit)) {
                    assertEquals(text.getBytes(StandardCharsets.UTF_8).length, h.parse(text));
                    assertEquals(List.of(), h.bad);
                    assertTrue(h.value("s", 1).toString().matches("x{" + (text.endsWith("}") ? limit - 8 : limit - 9) + "}"));
                }
            }
            for (String text : new String[] {first + string(limit) + "\n" + first, first + string(limit + 1)}) {
                try (ParserHarness h = new ParserHarness(SCHEMA, 100, inline, limit)) {
                    BadLineException e = assertThrows(BadLineException.class, () -> h.parse(text));
                    assertEquals(ParserHarness.FILE, e.file());
                    assertEquals(firstBytes, e.offset());
                    assertTrue(e.reason().startsWith("the line is 3,000,001 bytes long, and this JVM takes lines of up"
                            + " to 3,000,000 bytes"), e.reason());
                    assertTrue(e.reason().contains("PARQ_JAVA_OPTS=-Xmx1g"), e.reason());
                    // Not handed to the handler: rejecting the line would take as much memory as converting it.
                    assertEquals(List.of(), h.bad);
                }
            }
        }
    }

    /** A line {"s":"xx...x"} of {@code bytes} bytes. */
    private static String string(int bytes) {
        return "{\"s\":\"" + "x".repeat(bytes - 8) + "\"}";
    }

    @Test
    void absentFieldsAreNull() {
        String error = "{\"s\":\"x\",\"u\":{\"id\":1,\"tags\":[\"t\"]},\"rs\":[{\"b\":\"q\"}]}";
        String none = "{\"s\":\"y\"}";
        assertEquals(6, sameBothWays(lines(error, none, none, error, none, "{}")));
    }

    @Test
    void invalidUtf8AtEveryPositionOfAWordInValuesAndKeys() {
        int[][] sequences = {{0xC0, 0xAF}, {0xE0, 0x80, 0xAF}, {0xF0, 0x80, 0x80, 0xAF}, {0xED, 0xA0, 0x80},
            {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80}, {0xE2, 0x82}, {0x80}, {0xBF}, {0xFF}, {0xC3},
            {0xC3, 0xA9}, {0xE2, 0x82, 0xAC}, {0xF0, 0x9F, 0x98, 0x80}, {0x1F}, {'"'}, {'\\'}};
        for (int[] sequence : sequences) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int at = 0; at < 18; at++) {
                for (String[] around : new String[][] {{"{\"s\":\"", "\"}"}, {"{\"u\":{\"tags\":[\"", "\"]}}"},
                        {"{\"", "\":1}"}, {"{\"s\":\"x\",\"naïve\":\"é", "\"}"}}) {
                    out.writeBytes(around[0].getBytes(StandardCharsets.UTF_8));
                    out.writeBytes("a".repeat(at).getBytes(StandardCharsets.US_ASCII));
                    for (int b : sequence) {
                        out.write(b);
                    }
                    out.writeBytes(("bcdefghij" + around[1] + "\n").getBytes(StandardCharsets.US_ASCII));
                    out.writeBytes((COMMON + "\n" + COMMON + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            // Cut short by the end of the range: the last line has no newline.
            out.writeBytes("{\"s\":\"abc".getBytes(StandardCharsets.US_ASCII));
            for (int b : sequence) {
                out.write(b);
            }
            sameBothWays(out.toByteArray());
        }
    }

    @Test
    void numbersAtTheEdges() {
        String[] values = {"0", "-0", "7", "-7", "127", "128", "-128", "-129", "999999999999999999", "-999999999999999999",
            "1000000000000000000", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "00", "-00", "0.0", "1e0", "1E+0", "2e-1", "-", "--1", "1-", "0x1", "1.5.5", "1e5e5",
            "123456789012345678901234567890", "4.9e-324", "2.2250738585072014E-308", "1e-400", "0.30000000000000004"};
        List<String> lines = new ArrayList<>();
        for (String column : new String[] {"i8", "i16", "i", "n", "f", "x", "s", "amount"}) {
            for (String v : values) {
                lines.add("{\"" + column + "\":" + v + "}");
                lines.add("{\"" + column + "\":" + v + ",\"s\":\"after\"}");
                lines.add("{\"arr\":[" + v + "," + v + "]}");
                lines.add(COMMON);
            }
        }
        assertTrue(sameBothWays(lines(lines.toArray(new String[0]))) > lines.size() / 4);
    }

    /** Unknown values nested up to the inline path's depth are skipped inline; deeper ones fall back. */
    @Test
    void unknownValuesOfEveryDepth() {
        List<String> lines = new ArrayList<>();
        for (int depth = 1; depth <= 70; depth++) {
            lines.add("{\"zz\":" + "[{\"k\":".repeat(depth / 2) + "[".repeat(depth % 2) + "1" + "]".repeat(depth % 2)
                    + "}]".repeat(depth / 2) + ",\"n\":" + depth + "}");
            lines.add(COMMON);
            lines.add(COMMON);
        }
        lines.add("{\"zz\":" + "[".repeat(1001) + "]".repeat(1001) + "}");
        lines.add("{\"u\":{\"zz\":" + "[".repeat(999) + "]".repeat(999) + "}}");
        assertTrue(sameBothWays(lines(lines.toArray(new String[0]))) >= 3 * ByteScan.MAX_SKIP_DEPTH);
    }

    /** The inline path must not take a line that the tokenizer rejects for nesting deeper than its limit. */
    @Test
    void schemasTooDeepForTheSkipDepthAreLeftToTheTapePath() {
        LogicalType deep = new BigIntType();
        for (int depth = 1; depth <= Tokenizer.MAX_DEPTH - ByteScan.MAX_SKIP_DEPTH; depth++) {
            deep = depth % 2 == 0 ? new ArrayType(deep) : RowType.of(deep);
            RowType schema = RowType.of(deep);
            int containers = depth + 1;
            assertEquals(containers + ByteScan.MAX_SKIP_DEPTH <= Tokenizer.MAX_DEPTH, DecoderFactory.inlineSuits(schema),
                    "depth " + containers);
        }
        assertTrue(DecoderFactory.inlineSuits(RowType.of(new MapType(new VarCharType(), RowType.of(new IntType())))));
    }

    @Test
    void aSourceTheInlinePathDoesNotSuitStillParsesRight() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            lines.add(i % 500 == 499 ? COMMON : "{\"n\":" + i + ",\"\\u0073\":\"escaped key\",\"extra\":" + i + "}");
        }
        assertTrue(sameBothWays(lines(lines.toArray(new String[0]))) < 100);
    }

    /**
     * Mutants of every line above, one byte changed, dropped, doubled or cut off, each between
     * two common lines so that the inline path is tried on it despite its backing off.
     */
    @Test
    void mutantsAreTreatedAlikeByBothPaths() {
        byte[] interesting = {0x00, 0x1F, ' ', '\t', '\r', '"', '\\', '/', ',', ':', '{', '}', '[', ']', '0', '1', '9', '-',
            '+', '.', 'e', 'E', 'n', 't', 'f', 'u', 'a', 'Z', (byte) 0x80, (byte) 0xBF, (byte) 0xC3, (byte) 0xE2,
            (byte) 0xED, (byte) 0xF0, (byte) 0xF4, (byte) 0xFF};
        List<String> seeds = new ArrayList<>(List.of(INLINE));
        seeds.addAll(List.of(FALLBACK));
        seeds.addAll(List.of(BAD));
        Random random = new Random(20240131);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] common = (COMMON + "\n").getBytes(StandardCharsets.UTF_8);
        for (int round = 0; round < 120; round++) {
            for (String seed : seeds) {
                byte[] line = seed.getBytes(StandardCharsets.UTF_8);
                int at = random.nextInt(line.length);
                switch (random.nextInt(4)) {
                    case 0 -> line[at] = interesting[random.nextInt(interesting.length)];
                    case 1 -> line = concat(line, 0, at, line, at + 1, line.length);
                    case 2 -> line = concat(line, 0, at + 1, line, at, line.length);
                    default -> line = concat(line, 0, at, line, 0, 0);
                }
                out.writeBytes(line);
                out.write('\n');
                out.writeBytes(common);
                out.writeBytes(common);
            }
        }
        assertTrue(sameBothWays(out.toByteArray()) > 120L * seeds.size());
    }

    private static byte[] concat(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        byte[] c = new byte[aTo - aFrom + bTo - bFrom];
        System.arraycopy(a, aFrom, c, 0, aTo - aFrom);
        System.arraycopy(b, bFrom, c, aTo - aFrom, bTo - bFrom);
        return c;
    }
}
