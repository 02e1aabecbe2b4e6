package dev.parq.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaInferenceTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path path = dir.resolve(name);
        Files.writeString(path, content, StandardCharsets.UTF_8);
        return path;
    }

    private String infer(String content) throws IOException {
        return SchemaInference.infer(List.of(file("in.ndjson", content).toString()), SchemaInference.DEFAULT_SAMPLE_BYTES).toDdl();
    }

    /** Lines are judged by the parser's own tokenizer: what the job would reject teaches nothing. */
    @Test
    void linesTheParserRejectsAreSkippedAndKeysAreUnescaped() throws IOException {
        byte[] badUtf8 = "{\"late\":\"\u00ff\"}\n".getBytes(StandardCharsets.ISO_8859_1);
        Path input = dir.resolve("mixed.ndjson");
        Files.write(input, ("{\"a\\u0062\":1,\"big\":92233720368547758070,\"edge\":-9223372036854775808}\n"
                + "{\"a\":1,\"a\":true}\n").getBytes(StandardCharsets.UTF_8));
        Files.write(input, badUtf8, java.nio.file.StandardOpenOption.APPEND);
        Files.write(input, "{\"nan\":NaN}\n{\"trailing\":1},\n".getBytes(StandardCharsets.UTF_8),
                java.nio.file.StandardOpenOption.APPEND);
        assertEquals("ab BIGINT, big DOUBLE, edge BIGINT, a STRING",
                SchemaInference.infer(List.of(input.toString()), SchemaInference.DEFAULT_SAMPLE_BYTES).toDdl());
    }

    @Test
    void scalarsAndTheirMixtures() throws IOException {
        assertEquals("i BIGINT, d DOUBLE, b BOOLEAN, s STRING, mixed STRING, nothing STRING, late BIGINT",
                infer("{\"i\":1,\"d\":1,\"b\":true,\"s\":\"x\",\"mixed\":1,\"nothing\":null}\n"
                        + "{\"i\":-5,\"d\":2.5,\"b\":false,\"s\":null,\"mixed\":\"a\",\"late\":3}\n"));
    }

    @Test
    void integersBeyondBigintAreDoubles() throws IOException {
        assertEquals("small BIGINT, big DOUBLE",
                infer("{\"small\":9223372036854775807,\"big\":1}\n{\"big\":9223372036854775808}\n"));
    }

    @Test
    void objectsMergeArraysTakeTheirElementsType() throws IOException {
        assertEquals("user ROW<id BIGINT, name STRING, score DOUBLE>, tags ARRAY<STRING>, empty ARRAY<STRING>,"
                        + " nums ARRAY<DOUBLE>, objOrScalar STRING, objs ARRAY<ROW<a BIGINT, b BOOLEAN>>",
                infer("{\"user\":{\"id\":1,\"name\":\"a\"},\"tags\":[\"x\"],\"empty\":[],\"nums\":[1],"
                        + "\"objOrScalar\":{\"a\":1},\"objs\":[{\"a\":1}]}\n"
                        + "{\"user\":{\"id\":2,\"score\":0.5},\"tags\":[],\"empty\":[],\"nums\":[1.5,null],"
                        + "\"objOrScalar\":3,\"objs\":[{\"b\":true}]}\n"));
    }

    @Test
    void instantsOnlyWhenEverySampledValueHasAZone() throws IOException {
        assertEquals("ts TIMESTAMP_LTZ(3), `local` TIMESTAMP(3), mixed STRING",
                infer("{\"ts\":\"2024-01-31T12:00:00Z\",\"local\":\"2024-01-31T12:00:00\",\"mixed\":\"2024-01-31T12:00:00Z\"}\n"
                        + "{\"ts\":\"2024-01-31 12:00:00.123+02:00\",\"local\":\"2024-01-31T12:00:00\",\"mixed\":\"soon\"}\n"
                        + "{\"ts\":null}\n"));
    }

    /** Inference asks the decoder itself, so what it infers as an instant the job reads. */
    @Test
    void instantsAreWhatTheTimestampDecoderReads() throws IOException {
        assertEquals("z TIMESTAMP_LTZ(9), offsets TIMESTAMP_LTZ(3), badDay STRING, badHour STRING, noMinutes STRING",
                infer("{\"z\":\"2024-02-29T23:59:59.999Z\",\"offsets\":\"2024-01-31T12:00-05:30\","
                        + "\"badDay\":\"2023-02-29T00:00:00Z\",\"badHour\":\"2024-01-31T24:00:00Z\","
                        + "\"noMinutes\":\"2024-01-31T12Z\"}\n"
                        + "{\"z\":\"2024-01-31t12:00:00.123456789z\",\"offsets\":\"2024-01-31 12:00:00+0200\"}\n"));
    }

    /**
     * The precision keeps every digit sampled: 0-3 digits are 3, 4-6 are 6, 7-9 are 9; a column
     * mixing instants and local date-times is STRING; nanoseconds that a long cannot hold are 6.
     */
    @Test
    void thePrecisionKeepsTheDigitsSeen() throws IOException {
        assertEquals("ids TIMESTAMP_LTZ(6), micro TIMESTAMP(6), nano TIMESTAMP_LTZ(9), seconds TIMESTAMP(3),"
                        + " mixed STRING, ancient TIMESTAMP_LTZ(6), tenDigits TIMESTAMP(9)",
                infer("{\"ids\":\"2023-02-28T11:34:04.590544+0000\",\"micro\":\"2024-01-31 12:00:00.1234\","
                        + "\"nano\":\"2024-01-31T12:00:00.123456789Z\",\"seconds\":\"2024-01-31 12:00\","
                        + "\"mixed\":\"2024-01-31T12:00:00Z\",\"ancient\":\"1500-01-01T00:00:00.1234567Z\","
                        + "\"tenDigits\":\"2024-01-31T12:00:00.1234567891\"}\n"
                        + "{\"ids\":\"2023-02-28T11:34:04+00\",\"micro\":\"2024-01-31T12:00:00.5\","
                        + "\"seconds\":\"2024-01-31T12:00:01\",\"mixed\":\"2024-01-31T12:00:00\"}\n"));
    }

    @Test
    void linesThatAreNotObjectsAreSkipped() throws IOException {
        assertEquals("a BIGINT",
                infer("[1,2]\nnot json\n{\"a\":1}\n{\"a\":\"x\",}\n{\"a\":2} trailing\n\n{\"a\":1}"));
    }

    @Test
    void noObjectsIsAnError() throws IOException {
        SchemaException e = assertThrows(SchemaException.class, () -> infer("[1]\n42\n"));
        assertTrue(e.getMessage().startsWith("no JSON objects found in the sample of "), e.getMessage());
        assertThrows(SchemaException.class, () -> infer(""));
        assertThrows(SchemaException.class, () -> infer("{}\n"));
    }

    @Test
    void aKeyThatOnlyAppearsLateIsFound() throws IOException {
        StringBuilder content = new StringBuilder();
        String line = "{\"id\":123456,\"msg\":\"" + "x".repeat(80) + "\"}\n";
        while (content.length() < 8_000_000) {
            content.append(line);
        }
        // A section longer than the spacing of the sample windows, far from the head.
        while (content.length() < 9_200_000) {
            content.append("{\"id\":1,\"late_key\":true}\n");
        }
        while (content.length() < 16_000_000) {
            content.append(line);
        }
        String ddl = SchemaInference.infer(List.of(file("big.ndjson", content.toString()).toString()), 1 << 20).toDdl();
        assertEquals("id BIGINT, msg STRING, late_key BOOLEAN", ddl);
    }

    @Test
    void samplesTheTailAndEveryFile() throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 3_000_000) {
            head.append("{\"a\":1}\n");
        }
        Path first = file("a.ndjson", head.toString());
        Path second = file("b.ndjson", head + "{\"tail\":\"end\"}");
        Path third = file("c.ndjson", "{\"small\":1.5}\n");
        String ddl = SchemaInference.infer(List.of(first.toString(), second.toString(), third.toString()), 64 << 10).toDdl();
        assertEquals("a BIGINT, tail STRING, small DOUBLE", ddl);
    }
}
