package dev.parq.sink.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

class StringBoundsTest {

    private static final StringBounds BOUNDS = new StringBounds(
            Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("s"));

    /** Strings up to 4 KiB are kept exactly; longer ones become short bounds on either side, valid UTF-8. */
    @Test
    void longStringsBecomeShortValidBoundsOfThemselves() {
        Random random = new Random(5);
        String[] alphabet = {"a", "z", "\u00e9", "\u4e2d", "\ud83d\ude00", "\u007f", "\uffff"};
        for (int round = 0; round < 500; round++) {
            StringBuilder text = new StringBuilder();
            int length = round % 2 == 0 ? 4096 + random.nextInt(3000) : random.nextInt(4000);
            while (text.toString().getBytes(StandardCharsets.UTF_8).length < length) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            byte[] value = text.toString().getBytes(StandardCharsets.UTF_8);
            byte[] bytes = new byte[value.length + 10];
            System.arraycopy(value, 0, bytes, 5, value.length);
            Binary lower = BOUNDS.lower(bytes, 5, value.length);
            Binary upper = BOUNDS.upper(bytes, 5, value.length);
            if (value.length <= StringBounds.MAX_EXACT) {
                assertArrayEquals(value, lower.getBytes());
                assertArrayEquals(value, upper.getBytes());
                continue;
            }
            assertTrue(lower.length() <= StringBounds.BOUND_LENGTH && upper.length() <= StringBounds.BOUND_LENGTH + 4);
            assertTrue(Arrays.compareUnsigned(lower.getBytes(), value) <= 0, "lower bound above the value");
            assertTrue(Arrays.compareUnsigned(upper.getBytes(), value) >= 0, "upper bound below the value");
            for (Binary bound : new Binary[] {lower, upper}) {
                byte[] b = bound.getBytes();
                assertArrayEquals(b, new String(b, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8),
                        "a bound is valid UTF-8");
            }
        }
    }

    private static void assertArrayEquals(byte[] expected, byte[] actual) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual);
    }

    private static void assertArrayEquals(byte[] expected, byte[] actual, String message) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual, message);
    }
}
