package dev.parq.parse.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RejectedLinesTest {

    @Test
    void encodesRejectedLinesWithTheirBytes() {
        ByteBuffer utf8 = ByteBuffer.wrap("xx{\"a\":\"é\"}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"file\":\"f.json\",\"offset\":7,\"error\":\"bad\",\"line\":\"{\\\"a\\\":\\\"é\\\"}\"}",
                RejectedLines.encode("f.json", 7, "bad", utf8, 2, utf8.limit() - 1));
        ByteBuffer invalid = ByteBuffer.wrap(new byte[] {'{', (byte) 0xff, '}'});
        assertEquals("{\"file\":\"f.json\",\"offset\":0,\"error\":\"utf\",\"line_base64\":\"e/99\"}",
                RejectedLines.encode("f.json", 0, "utf", invalid, 0, 3));
    }

    @Test
    void encodesADamagedFileWithoutALine() {
        assertEquals("{\"file\":\"s3a://b/k.gz\",\"offset\":1843,\"error\":\"truncated\"}",
                RejectedLines.damaged("s3a://b/k.gz", 1843, "truncated"));
    }
}
