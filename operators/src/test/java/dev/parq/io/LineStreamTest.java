package dev.parq.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import com.github.luben.zstd.ZstdOutputStream;

class LineStreamTest {

    private static final byte[] LINES = lines(2_000);

    @Test
    void chunksHoldWholeLinesAtTheirStreamOffsets() throws IOException {
        for (Compression compression : Compression.values()) {
            byte[] stored = compress(compression, LINES);
            assertEquals(compression, Compression.of("input", stored, Compression.HEAD_BYTES));
            assertEquals(new String(LINES, StandardCharsets.UTF_8), readAll(stored, compression, 1000), compression.name());
        }
    }

    @Test
    void aGzipFileOfSeveralMembersIsTheirConcatenation() throws IOException {
        int half = LINES.length / 2 + 3;
        ByteArrayOutputStream members = new ByteArrayOutputStream();
        members.writeBytes(compress(Compression.GZIP, Arrays.copyOf(LINES, half)));
        members.writeBytes(compress(Compression.GZIP, Arrays.copyOfRange(LINES, half, LINES.length)));
        assertEquals(new String(LINES, StandardCharsets.UTF_8), readAll(members.toByteArray(), Compression.GZIP, 777));
    }

    @Test
    void magicBytesDecideThenTheName() {
        byte[] gzip = {0x1f, (byte) 0x8b, 8, 0};
        byte[] zstd = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd};
        byte[] text = "{\"a\"".getBytes(StandardCharsets.UTF_8);
        assertEquals(Compression.GZIP, Compression.of("logs.ndjson", gzip, 4));
        assertEquals(Compression.ZSTD, Compression.of("logs.gz", zstd, 4));
        assertEquals(Compression.GZIP, Compression.of("LOGS.GZ", text, 4));
        assertEquals(Compression.ZSTD, Compression.of("logs.zst", text, 4));
        assertEquals(Compression.NONE, Compression.of("logs.ndjson", text, 4));
        assertEquals(Compression.NONE, Compression.of("logs.ndjson", zstd, 3));
    }

    @Test
    void aTruncatedStreamIsCorruptInputNamingItAndWhereItStops() throws IOException {
        byte[] stored = compress(Compression.GZIP, LINES);
        byte[] cut = Arrays.copyOf(stored, stored.length - 20);
        CorruptInputException e = assertThrows(CorruptInputException.class, () -> readAll(cut, Compression.GZIP, 1000));
        assertTrue(e.getMessage().startsWith("input.gz: truncated or corrupt gzip stream: it cannot be read past byte "),
                e.getMessage());
        assertTrue(e.getMessage().contains(" of the decompressed stream"), e.getMessage());
    }

    /**
     * A damaged stream hands on every whole line inflated before the damage, in a chunk of any size,
     * then says where it stops: a reader that goes on past a damaged object keeps those lines.
     */
    @Test
    void theWholeLinesBeforeTheDamageAreHandedOnFirst() throws IOException {
        byte[] stored = compress(Compression.GZIP, LINES);
        byte[] cut = Arrays.copyOf(stored, stored.length / 2);
        StringBuilder before = new StringBuilder();
        try (LineStream lines = LineStream.open("input.gz", new ByteArrayInputStream(cut), Compression.GZIP, 1 << 20,
                1 << 20)) {
            CorruptInputException e = assertThrows(CorruptInputException.class, () -> {
                for (ByteBuffer chunk; (chunk = lines.next()) != null; ) {
                    before.append(StandardCharsets.UTF_8.decode(chunk));
                }
            });
            String text = new String(LINES, StandardCharsets.UTF_8);
            assertTrue(before.length() > 0 && text.startsWith(before.toString()) && before.charAt(before.length() - 1)
                    == '\n', before.length() + " characters before the damage");
            assertTrue(e.getMessage().contains("cannot be read past byte "), e.getMessage());
        }
    }

    @Test
    void aFileNamedGzipThatIsNotIsCorruptInput() {
        assertThrows(CorruptInputException.class, () -> readAll(LINES, Compression.GZIP, 1000));
    }

    @Test
    void aLineLongerThanTheMostTakenIsHandedOnForTheParserToReport() throws IOException {
        byte[] longLine = "0123456789abcdefghij\nshort\n".getBytes(StandardCharsets.UTF_8);
        try (LineStream lines = LineStream.open("input", new ByteArrayInputStream(longLine), Compression.NONE, 4, 10)) {
            ByteBuffer first = lines.next();
            assertEquals(11, first.remaining());
            assertEquals(0, lines.chunkOffset());
            StringBuilder rest = new StringBuilder();
            for (ByteBuffer chunk; (chunk = lines.next()) != null; ) {
                rest.append(StandardCharsets.UTF_8.decode(chunk));
            }
            assertEquals("bcdefghij\nshort\n", rest.toString(), "the rest of the long line, then the next");
        }
    }

    /** The chunks' text, each checked to be whole lines at the offset the previous ones add up to. */
    private static String readAll(byte[] stored, Compression compression, int chunkSize) throws IOException {
        StringBuilder text = new StringBuilder();
        long expectedOffset = 0;
        try (LineStream lines = LineStream.open("input" + (compression == Compression.GZIP ? ".gz" : ""),
                new ByteArrayInputStream(stored), compression, chunkSize, 1 << 20)) {
            for (ByteBuffer chunk; (chunk = lines.next()) != null; ) {
                assertEquals(expectedOffset, lines.chunkOffset());
                assertEquals('\n', chunk.get(chunk.limit() - 1));
                expectedOffset += chunk.remaining();
                text.append(StandardCharsets.UTF_8.decode(chunk));
            }
            assertNull(lines.next());
        }
        return text.toString();
    }

    static byte[] compress(Compression compression, byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (compression) {
            case NONE -> out.writeBytes(bytes);
            case GZIP -> {
                try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                    gz.write(bytes);
                }
            }
            case ZSTD -> {
                try (ZstdOutputStream zst = new ZstdOutputStream(out)) {
                    zst.write(bytes);
                }
            }
        }
        return out.toByteArray();
    }

    private static byte[] lines(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("{\"i\":").append(i).append(",\"s\":\"").append("x".repeat(i % 97)).append("\"}\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
