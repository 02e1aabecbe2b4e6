package dev.parq.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time string scan must stop at exactly the bytes a byte-by-byte scan would: every
 * byte value at every position of the eight-byte words, alone and after other bytes that need
 * attention.
 */
class StringScanTest {

    private final Tokenizer tokenizer = new Tokenizer();

    @Test
    void everyByteAtEveryPositionOfAWord() {
        for (int b = 0; b < 256; b++) {
            for (int at = 0; at < 20; at++) {
                for (String before : new String[] {"", "é", "\\n", "\\u00e9"}) {
                    byte[] line = line(before, at, (byte) b);
                    boolean plain = b >= 0x20 && b < 0x80 && b != '"' && b != '\\';
                    int status = tokenizer.scan(line, 0, line.length);
                    assertEquals(plain ? Tokenizer.OBJECT : Tokenizer.ERROR, status,
                            "byte 0x" + Integer.toHexString(b) + " at " + at + " after '" + before + "'");
                    if (!plain) {
                        int position = 6 + before.getBytes(StandardCharsets.UTF_8).length + at;
                        // A quote ends the string and a backslash starts an escape: the next byte is wrong.
                        int expected = b == '"' || b == '\\' ? position + 1 : position;
                        assertEquals(expected, tokenizer.errorPosition(), "error position for byte 0x" + Integer.toHexString(b) + " at " + at);
                    }
                }
            }
        }
    }

    /** {"k":"<before>aaa…<b>aaa…"} with the byte b at offset at after before, then '\n'. */
    private static byte[] line(String before, int at, byte b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"k\":\"".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < at; i++) {
            out.write('a');
        }
        out.write(b);
        for (int i = 0; i < 20; i++) {
            out.write('a');
        }
        out.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
