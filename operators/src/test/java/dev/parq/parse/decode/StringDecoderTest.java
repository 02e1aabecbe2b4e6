package dev.parq.parse.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * {@link StringDecoder} keeps the addresses of its vector's buffers between values: values must
 * still land in the vector's current buffers when they grow under it, or when Arrow replaces them
 * between values or between batches.
 */
class StringDecoderTest {

    private static int decode(StringDecoder decoder, String json, int index) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertEquals(bytes.length, decoder.decodeInline(bytes, 0, bytes.length, index), json);
        return index + 1;
    }

    private static List<String> values(VarCharVector vector, int count) {
        vector.setValueCount(count);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] value = vector.get(i);
            values.add(value == null ? null : new String(value, StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void valuesFollowTheBuffersWhereverTheyAre() {
        try (BufferAllocator allocator = new RootAllocator(); VarCharVector vector = new VarCharVector("v", allocator)) {
            vector.allocateNew(16, 2);
            StringDecoder decoder = new StringDecoder(vector);
            List<String> expected = new ArrayList<>();
            int index = 0;
            for (int i = 0; i < 50; i++) {
                String value = "value " + i + "x".repeat(i % 7 == 0 ? 40 : i % 3);
                index = decode(decoder, "\"" + value + "\"", index);
                expected.add(value);
                if (i % 10 == 9) {
                    // Arrow grows the validity and offset buffers itself: new buffers, same contents.
                    vector.reallocValidityAndOffsetBuffers();
                }
                if (i % 5 == 0) {
                    decoder.writeNull(index++);
                    expected.add(null);
                }
            }
            decoder.writeNulls(index, index + 20);
            index += 20;
            for (int i = 0; i < 20; i++) {
                expected.add(null);
            }
            index = decode(decoder, "12.5", index);
            expected.add("12.5");
            decoder.finish(index);
            assertEquals(expected, values(vector, index));

            // The next batch in buffers Arrow allocated anew.
            vector.clear();
            vector.allocateNew(8, 1);
            int next = decode(decoder, "\"after\"", 0);
            next = decode(decoder, "\"a longer value than the first buffer holds: " + "y".repeat(100) + "\"", next);
            decoder.writeNull(next++);
            decoder.finish(next);
            List<String> second = values(vector, next);
            assertEquals("after", second.get(0));
            assertEquals("a longer value than the first buffer holds: " + "y".repeat(100), second.get(1));
            assertNull(second.get(2));
        }
    }
}
