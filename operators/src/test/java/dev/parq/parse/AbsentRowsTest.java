package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A ROW that is absent or null holds its nulls back and writes them for a run of rows at once. Rows
 * parsed in batches, where runs are long, cross batch ends and meet rejected lines, must read back
 * exactly as the same lines parsed one per batch, where every run is one row long.
 */
class AbsentRowsTest {

    private static final String SCHEMA = "id BIGINT, error ROW<type STRING, code INT, retryable BOOLEAN,"
            + " at TIMESTAMP_LTZ(3), frames ARRAY<STRING>, cause ROW<msg STRING, n DOUBLE>>,"
            + " items ARRAY<ROW<a INT, s STRING>>, tail STRING";

    private static String line(Random random, int id) {
        StringBuilder sb = new StringBuilder("{\"id\":").append(id);
        int kind = random.nextInt(20);
        if (kind == 0) {
            sb.append(",\"error\":null");
        } else if (kind < 3) {
            sb.append(",\"error\":{\"type\":\"io\",\"code\":").append(id % 1000)
                    .append(",\"retryable\":").append(id % 2 == 0)
                    .append(",\"at\":\"2024-01-31T12:34:56.789Z\",\"frames\":[\"a\",\"b\"]");
            if (random.nextBoolean()) {
                sb.append(",\"cause\":{\"msg\":\"m").append(id).append("\",\"n\":1.5}");
            }
            sb.append('}');
        } else if (kind == 3) {
            sb.append(",\"error\":{\"code\":\"not an int\"}");
        }
        if (random.nextInt(3) == 0) {
            sb.append(",\"items\":[");
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ",").append(random.nextInt(3) == 0 ? "null" : "{\"a\":" + i + ",\"s\":\"x\"}");
            }
            sb.append(']');
        }
        if (random.nextInt(25) == 0) {
            sb.append(",\"id\":\"rejected after the ROW was written\"");
        }
        return sb.append(",\"tail\":\"t").append(id).append("\"}").toString();
    }

    /** The rows of the batch as text, one string a row, without the header. */
    private static List<String> rows(BatchParser parser) {
        String[] lines = parser.batch().contentToTSVString().split("\n");
        return new ArrayList<>(Arrays.asList(lines).subList(1, lines.length));
    }

    private static List<String> parseAll(byte[] content, int maxRows, boolean inline) {
        List<String> rows = new ArrayList<>();
        try (ParserHarness h = new ParserHarness(SCHEMA, maxRows, inline)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            int pos = 0;
            while (pos < content.length) {
                pos = h.parser.parse(buf, pos, content.length, "f", pos);
                rows.addAll(rows(h.parser));
                h.parser.clear();
            }
        }
        return rows;
    }

    @Test
    void heldNullsReadBackAsNullsWrittenOneByOne() {
        Random random = new Random(7);
        StringBuilder text = new StringBuilder();
        for (int id = 0; id < 3000; id++) {
            text.append(line(random, id)).append('\n');
        }
        byte[] content = text.toString().getBytes(StandardCharsets.UTF_8);
        List<String> oneByOne = parseAll(content, 1, false);
        assertTrue(oneByOne.size() > 2500, "most lines are good: " + oneByOne.size());
        for (int maxRows : new int[] {7, 64, 5000}) {
            assertEquals(oneByOne, parseAll(content, maxRows, true), "inline, batches of " + maxRows);
            assertEquals(oneByOne, parseAll(content, maxRows, false), "tape, batches of " + maxRows);
        }
    }
}
