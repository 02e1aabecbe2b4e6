package dev.parq.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Random;

import org.junit.jupiter.api.Test;

class LineFeedScanTest {

    /**
     * Against a byte-wise search, at every alignment and with bytes that the word-wise test could
     * mistake for a line feed (0x0B, 0x09, 0x8A, 0x00, 0xFF around it), in a heap and a direct buffer.
     */
    @Test
    void findsTheFirstLineFeedAsAByteWiseSearchDoes() {
        Random random = new Random(11);
        byte[] tricky = {0x0B, 0x09, (byte) 0x8A, 0x00, (byte) 0xFF, 0x0A, 'a', 0x1A};
        for (int round = 0; round < 2000; round++) {
            byte[] bytes = new byte[1 + random.nextInt(100)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(4) == 0 ? tricky[random.nextInt(tricky.length)] : (byte) ('a' + random.nextInt(26));
            }
            int from = random.nextInt(bytes.length);
            int to = from + random.nextInt(bytes.length - from + 1);
            int expected = -1;
            for (int i = from; i < to; i++) {
                if (bytes[i] == '\n') {
                    expected = i;
                    break;
                }
            }
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            assertEquals(expected, LineFeeds.indexOf(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), from, to));
            assertEquals(expected, LineFeeds.indexOf(direct, from, to));
        }
    }
}
