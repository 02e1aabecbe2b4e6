package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * JSONTestSuite's y_ and n_ cases as NDJSON (this module's test resources, {@code conformance/}, MIT licence):
 * every accepted case is a row, every rejected case is reported at its exact offset.
 */
class ConformanceTest {

    private record Expected(long id, String name, long offset) {}

    /** The corpus in this module's test resources, as the build copied them. */
    static Path conformanceDir() {
        Path dir = Path.of("target", "test-classes", "conformance").toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            return fail("no conformance corpus at " + dir + " (operators/src/test/resources/conformance)");
        }
        return dir;
    }

    private static Map<String, List<Expected>> expected(Path file) throws IOException {
        Map<String, List<Expected>> lists = new HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String list = p.currentName();
                List<Expected> entries = new ArrayList<>();
                p.nextToken();
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    long id = -1;
                    long offset = -1;
                    String name = null;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        p.nextToken();
                        switch (field) {
                            case "id" -> id = p.getLongValue();
                            case "offset" -> offset = p.getLongValue();
                            case "case" -> name = p.getText();
                            default -> p.skipChildren();
                        }
                    }
                    entries.add(new Expected(id, name, offset));
                }
                lists.put(list, entries);
            }
        }
        return lists;
    }

    @Test
    void jsonTestSuite() throws IOException {
        Path dir = conformanceDir();
        byte[] content = Files.readAllBytes(dir.resolve("jsontestsuite.ndjson"));
        Map<String, List<Expected>> expected = expected(dir.resolve("jsontestsuite.expected.json"));
        List<Expected> accept = expected.get("accept");
        List<Expected> reject = expected.get("reject");
        assertTrue(accept.size() > 50 && reject.size() > 100, "expected lists look truncated");

        try (ParserHarness h = new ParserHarness("id BIGINT, v STRING", 100_000)) {
            ByteBuffer buf = ByteBuffer.wrap(content).asReadOnlyBuffer();
            assertEquals(content.length, h.parser.parse(buf, 0, content.length, "jsontestsuite.ndjson", 0));

            Set<Long> rows = new HashSet<>();
            BigIntVector ids = (BigIntVector) h.column("id");
            for (int i = 0; i < h.parser.rows(); i++) {
                rows.add(ids.get(i));
            }
            for (Expected e : accept) {
                assertTrue(rows.contains(e.id()), "accepted case not a row: " + e);
            }
            Map<Long, String> rejectedAt = new HashMap<>();
            for (ParserHarness.Bad bad : h.bad) {
                rejectedAt.put(bad.offset(), bad.reason());
            }
            for (Expected e : reject) {
                assertTrue(rejectedAt.containsKey(e.offset()), "rejected case not reported at its offset: " + e);
            }
            assertEquals(accept.size(), h.parser.rows());
            assertEquals(reject.size(), h.bad.size());
            assertEquals(accept.size() + reject.size(), h.parser.records());
            assertEquals(reject.size(), h.parser.rejected());
        }
    }
}
