package dev.parq.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The word-at-a-time digit scan ends every digit run exactly where a byte-by-byte scan would. */
class NumberScanTest {

    private final Tokenizer tokenizer = new Tokenizer();

    @Test
    void everyByteAfterDigitRunsOfEveryLength() {
        for (String prefix : new String[] {"", "-", "1.", "-2.0"}) {
            for (int digits = 1; digits <= 20; digits++) {
                for (int b = 0; b < 256; b++) {
                    String number = prefix + "123456789".repeat(3).substring(0, digits);
                    byte[] head = ("{\"k\":" + number).getBytes(StandardCharsets.US_ASCII);
                    byte[] line = new byte[head.length + 3];
                    System.arraycopy(head, 0, line, 0, head.length);
                    line[head.length] = (byte) b;
                    line[head.length + 1] = '}';
                    line[head.length + 2] = '\n';
                    boolean digit = b >= '0' && b <= '9';
                    boolean ends = b == '}' || b == ' ' || b == '\t' || b == '\r';
                    String where = "byte 0x" + Integer.toHexString(b) + " after " + number;
                    if (b == '}') {
                        line[head.length + 1] = ' ';
                    }
                    int status = tokenizer.scan(line, 0, line.length);
                    assertEquals(digit || ends ? Tokenizer.OBJECT : Tokenizer.ERROR, status, where);
                    if (status == Tokenizer.OBJECT) {
                        Tape tape = tokenizer.tape();
                        assertEquals(Tape.NUMBER, tape.kind(2), where);
                        assertEquals(number.length() + (digit ? 1 : 0), tape.end(2) - tape.start(2), where);
                    }
                }
            }
        }
    }
}
