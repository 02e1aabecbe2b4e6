package dev.parq.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

class BatchParserTest {

    @Test
    void parsesARegionThatStartsMidBuffer() {
        try (ParserHarness h = new ParserHarness("id BIGINT, s STRING")) {
            String text = "garbage before\n{\"id\":1,\"s\":\"a\"}\n{\"id\":2}\ngarbage after\n";
            ByteBuffer buf = ParserHarness.bytes(text);
            int from = text.indexOf('{');
            int to = text.indexOf("garbage after");
            int end = h.parser.parse(buf, from, to, "f", 1000);
            assertEquals(to, end);
            assertEquals(2, h.parser.rows());
            assertEquals(2, h.parser.batch().getRowCount());
            assertEquals(1L, h.value("id", 0));
            assertEquals("a", h.value("s", 0));
            assertEquals(2L, h.value("id", 1));
            assertNull(h.value("s", 1));
            assertTrue(h.bad.isEmpty());
        }
    }

    @Test
    void offsetsOfBadLinesAreFileOffsetsOfTheLineStart() {
        try (ParserHarness h = new ParserHarness("id BIGINT")) {
            String text = "xx\n{\"id\":1}\n{\"id\":}\n";
            ByteBuffer buf = ParserHarness.bytes(text);
            h.parser.parse(buf, 3, text.length(), "f", 500);
            assertEquals(1, h.bad.size());
            assertEquals(500 + "{\"id\":1}\n".length(), h.bad.get(0).offset());
            assertEquals("f", h.bad.get(0).file());
            assertEquals("{\"id\":}", h.bad.get(0).line());
        }
    }

    @Test
    void lastLineWithoutNewline() {
        try (ParserHarness h = new ParserHarness("id BIGINT")) {
            String text = "{\"id\":1}\n{\"id\":2}";
            assertEquals(text.length(), h.parse(text));
            assertEquals(2, h.parser.rows());
            assertEquals(2L, h.value("id", 1));
        }
    }

    @Test
    void crlfLineEnds() {
        try (ParserHarness h = new ParserHarness("id BIGINT, s STRING")) {
            h.parse("{\"id\":1,\"s\":\"x\"}\r\n{\"id\":2}\r\n{\"id\":}\r\n");
            assertEquals(2, h.parser.rows());
            assertEquals("x", h.value("s", 0));
            assertEquals("{\"id\":}", h.bad.get(0).line());
        }
    }

    @Test
    void blankLinesAreNotRecords() {
        try (ParserHarness h = new ParserHarness("id BIGINT")) {
            h.parse("\n   \n\t\r\n{\"id\":1}\n\r\n\n{\"id\":2}\n  ");
            assertEquals(2, h.parser.rows());
            assertEquals(2, h.parser.records());
            assertEquals(0, h.parser.rejected());
        }
    }

    @Test
    void fullBatchReturnsMidRangeAndResumes() {
        try (ParserHarness h = new ParserHarness("id BIGINT, tags ARRAY<STRING>", 2)) {
            String text = "{\"id\":1,\"tags\":[\"a\"]}\n{\"id\":2,\"tags\":[\"b\",\"c\"]}\n\n{\"id\":3,\"tags\":[\"d\"]}\n";
            ByteBuffer buf = ParserHarness.bytes(text);
            int end = h.parser.parse(buf, 0, buf.limit(), "f", 0);
            assertTrue(h.parser.isFull());
            assertEquals(text.indexOf("\n\n") + 1, end);
            assertEquals("[\"b\",\"c\"]", h.value("tags", 1).toString());
            h.parser.clear();
            assertEquals(0, h.parser.rows());
            assertFalse(h.parser.isFull());
            assertEquals(buf.limit(), h.parser.parse(buf, end, buf.limit(), "f", end));
            assertEquals(1, h.parser.rows());
            assertEquals(3L, h.value("id", 0));
            assertEquals("[\"d\"]", h.value("tags", 0).toString());
            assertEquals(3, h.parser.records());
        }
    }

    @Test
    void badLineLeavesNoTraceInNestedVectors() {
        try (ParserHarness h = new ParserHarness("id BIGINT, tags ARRAY<STRING>, u ROW<a INT, b ARRAY<INT>>")) {
            h.parse("{\"id\":1,\"tags\":[\"a\"],\"u\":{\"a\":1,\"b\":[1]}}\n"
                    + "{\"id\":2,\"tags\":[\"x\",\"y\",\"z\"],\"u\":{\"a\":2,\"b\":[1,2,\"bad\"]}}\n"
                    + "{\"id\":3,\"tags\":[\"b\"],\"u\":{\"b\":[3]}}\n"
                    + "{\"id\":4,\"tags\":[\"q\",\"r\"],\"u\":{\"a\":\"bad\"}}\n");
            assertEquals(2, h.parser.rows());
            assertEquals("field 'u.b[]': expected INT, found string", h.bad.get(0).reason());
            assertEquals(3L, h.value("id", 1));
            assertEquals("[\"b\"]", h.value("tags", 1).toString());
            assertEquals("{\"b\":[3]}", h.value("u", 1).toString());
            org.apache.arrow.vector.complex.ListVector tags =
                    (org.apache.arrow.vector.complex.ListVector) h.column("tags");
            assertEquals(2, tags.getDataVector().getValueCount());
        }
    }

    @Test
    void vectorsAreReusedAndEveryColumnIsSetEachRow() {
        try (ParserHarness h = new ParserHarness("id BIGINT, s STRING, m MAP<STRING, INT>")) {
            h.parse("{\"id\":1,\"s\":\"first\",\"m\":{\"k\":1}}\n");
            h.parser.clear();
            h.parse("{\"id\":null}\n");
            assertEquals(1, h.parser.rows());
            assertNull(h.value("id", 0));
            assertNull(h.value("s", 0));
            assertNull(h.value("m", 0));
        }
    }

    /** A key whose name holds '.', '[' or a backslash is escaped in its path, so that no two paths collide. */
    @Test
    void unknownKeyPathsNeverCollide() {
        try (ParserHarness h = new ParserHarness("id BIGINT, r ROW<a BIGINT>")) {
            h.parse("{\"id\":1,\"r.zz\":1,\"r\":{\"zz\":2,\"x[]\":3,\"b\\\\c\":4}}\n");
            Map<String, UnknownField> unknown = h.parser.unknownFields();
            assertEquals(java.util.Set.of("r\\.zz", "r.zz", "r.x\\[]", "r.b\\\\c"), unknown.keySet(), unknown.toString());
        }
    }

    @Test
    void unknownFieldsAreCountedAtTheirTopmostPath() {
        try (ParserHarness h = new ParserHarness("id BIGINT, user ROW<id BIGINT>, tags ARRAY<ROW<k STRING>>")) {
            h.parse("{\"id\":1,\"extra\":{\"deep\":1},\"user\":{\"id\":1,\"name\":\"n\"}}\n"
                    + "{\"id\":2,\"extra\":2,\"tags\":[{\"k\":\"a\",\"v\":1},{\"v\":2}]}\n"
                    + "{\"id\":\"bad\",\"other\":1}\n"
                    + "{\"id\":3,\"extr\\u0061\":3}\n");
            Map<String, UnknownField> unknown = h.parser.unknownFields();
            assertEquals(3, unknown.size(), unknown.toString());
            assertEquals(new UnknownField(3, ParserHarness.FILE, 0), unknown.get("extra"));
            assertEquals(1, unknown.get("user.name").count());
            UnknownField v = unknown.get("tags[].v");
            assertEquals(2, v.count());
            assertEquals(h.bad.size(), 1);
        }
    }

    @Test
    void unknownFieldMergeKeepsEarliestOccurrence() {
        UnknownField a = new UnknownField(2, "b.json", 10);
        a.merge(new UnknownField(3, "a.json", 99));
        assertEquals(new UnknownField(5, "a.json", 99), a);
        a.merge(new UnknownField(1, "a.json", 5));
        assertEquals(new UnknownField(6, "a.json", 5), a);
        a.merge(new UnknownField(1, "c.json", 0));
        assertEquals(new UnknownField(7, "a.json", 5), a);
    }

    @Test
    void duplicateKeysLastWins() {
        try (ParserHarness h = new ParserHarness("id BIGINT, m MAP<STRING, INT>")) {
            h.parse("{\"id\":1,\"id\":2,\"m\":{\"a\":1,\"b\":2,\"a\":3}}\n{\"id\":\"x\",\"id\":3}\n");
            assertEquals(2, h.parser.rows());
            assertEquals(2L, h.value("id", 0));
            assertEquals(3L, h.value("id", 1));
            assertEquals("[{\"key\":\"b\",\"value\":2},{\"key\":\"a\",\"value\":3}]", h.value("m", 0).toString());
        }
    }

    @Test
    void handlerMayThrowToFail() {
        try (org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                BatchParser parser = new BatchParser(dev.parq.schema.TableSchema.parse("id BIGINT").rowType(),
                        allocator, 10, (file, offset, reason, buf, s, e) -> {
                            throw new BadLineException(file, offset, reason);
                        })) {
            byte[] text = "{\"id\":1}\n[1]\n".getBytes(StandardCharsets.UTF_8);
            BadLineException e = assertThrows(BadLineException.class,
                    () -> parser.parse(ByteBuffer.wrap(text), 0, text.length, "x.json", 0));
            assertEquals("x.json: bad line at byte 9: top-level value is not an object", e.getMessage());
            assertEquals(9, e.offset());
        }
    }

    @Test
    void directBuffersWork() {
        try (ParserHarness h = new ParserHarness("s STRING")) {
            byte[] text = "{\"s\":\"h\u00e9llo\"}\n{\"s\":\"a\\nb\"}\n".getBytes(StandardCharsets.UTF_8);
            ByteBuffer direct = ByteBuffer.allocateDirect(text.length);
            direct.put(text).flip();
            h.parser.parse(direct.asReadOnlyBuffer(), 0, text.length, "f", 0);
            assertEquals("h\u00e9llo", h.value("s", 0));
            assertEquals("a\nb", h.value("s", 1));
        }
    }

    @Test
    void linesAcrossTheCopyWindowAndLongerThanIt() {
        try (ParserHarness h = new ParserHarness("id BIGINT, s STRING")) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.util.List<Long> badOffsets = new java.util.ArrayList<>();
            String filler = "é".repeat(1000);
            int id = 0;
            while (out.size() < 5_000_000) {
                if (id % 997 == 0) {
                    badOffsets.add((long) out.size());
                    // A truncated two-byte sequence: invalid only if the whole line is seen.
                    out.writeBytes(("{\"id\":" + id + ",\"s\":\"" + filler).getBytes(StandardCharsets.UTF_8));
                    out.write(0xC3);
                    out.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
                } else if (id == 2500) {
                    out.writeBytes(("{\"id\":" + id + ",\"s\":\"" + "x".repeat(3_000_000) + "\"}\n")
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    out.writeBytes(("{\"id\":" + id + ",\"s\":\"" + filler + "\"}\n").getBytes(StandardCharsets.UTF_8));
                }
                id++;
            }
            byte[] content = out.toByteArray();
            int pos = 0;
            int rows = 0;
            while (pos < content.length) {
                pos = h.parser.parse(ByteBuffer.wrap(content), pos, content.length, "f", pos);
                org.apache.arrow.vector.BigIntVector ids = (org.apache.arrow.vector.BigIntVector) h.column("id");
                for (int r = 0; r < h.parser.rows(); r++, rows++) {
                    long expectedId = ids.get(r);
                    assertTrue(expectedId % 997 != 0);
                    String s = (String) h.value("s", r);
                    assertEquals(expectedId == 2500 ? 3_000_000 : 1000, s.length());
                }
                h.parser.clear();
            }
            assertEquals(id - badOffsets.size(), rows);
            assertEquals(badOffsets.size(), h.bad.size());
            for (int i = 0; i < badOffsets.size(); i++) {
                assertEquals(badOffsets.get(i), h.bad.get(i).offset());
                assertTrue(h.bad.get(i).reason().startsWith("invalid UTF-8 at column"), h.bad.get(i).reason());
            }
        }
    }

    /**
     * A line longer than the window takes its part of the JVM's heap for long lines, ends the batch
     * right after it so that the batch is written at once, and gives the heap back when the batch
     * is cleared; the rows after it go on in the same batch if the parser is called again.
     */
    @Test
    void aLongLineHoldsItsHeapUntilItsBatchIsCleared() {
        try (ParserHarness h = new ParserHarness("id BIGINT, s STRING")) {
            String text = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"" + "x".repeat(3_000_000) + "\"}\n{\"id\":3}\n";
            ByteBuffer buf = ParserHarness.bytes(text);
            int free = LongLines.jvm().available();
            int end = h.parser.parse(buf, 0, buf.limit(), "f", 0);
            assertEquals(text.indexOf("{\"id\":3"), end, "the parser returns after the long line");
            assertTrue(h.parser.isFull());
            assertEquals(2, h.parser.rows());
            int held = free - LongLines.jvm().available();
            assertTrue(held >= LongLines.jvm().permitsFor(3_000_000) && held < LongLines.jvm().permitsFor(3_100_000),
                    "the window grown to the line holds three times its size: " + held + " KiB");
            // Cut by the 1 MiB window, the line is read again once, in a window as long as the
            // line, instead of once per doubling (2 and 4 MiB).
            assertEquals(1, h.parser.windowRefills());
            assertEquals(buf.limit(), h.parser.parse(buf, end, buf.limit(), "f", end));
            assertEquals(3, h.parser.rows());
            assertEquals(3_000_000, ((String) h.value("s", 1)).length());
            h.parser.clear();
            assertEquals(free, LongLines.jvm().available());
        }
    }

    /** The budget waits for what others hold, never asks for more than all of it, and counts what is given back. */
    @Test
    void longLinesShareOneBudget() throws Exception {
        LongLines budget = new LongLines(30L << 20);
        assertEquals(30 << 10, budget.permitsFor(1L << 30), "a window larger than the budget takes all of it");
        assertEquals(3 << 10, budget.permitsFor(1 << 20));
        budget.take(budget.permitsFor(8 << 20));
        assertEquals(6 << 10, budget.available());
        java.util.concurrent.CountDownLatch taken = new java.util.concurrent.CountDownLatch(1);
        Thread other = new Thread(() -> {
            budget.take(budget.permitsFor(4 << 20));
            taken.countDown();
        });
        other.start();
        assertFalse(taken.await(200, java.util.concurrent.TimeUnit.MILLISECONDS), "took more than was free");
        budget.giveBack(budget.permitsFor(8 << 20));
        assertTrue(taken.await(10, java.util.concurrent.TimeUnit.SECONDS));
        other.join();
        assertEquals(18 << 10, budget.available());
    }
}
