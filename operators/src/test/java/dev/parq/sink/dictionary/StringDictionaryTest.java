package dev.parq.sink.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.parq.sink.page.StringBounds;
import org.junit.jupiter.api.Test;

/** Lookups of string values wherever their bytes lie: the same bytes get the same id, others another. */
class StringDictionaryTest {

    /** values[i] placed at the end of an array, and in the middle of one with random bytes around it. */
    private static byte[][] places(byte[] value, SplittableRandom random) {
        byte[] atEnd = new byte[3 + value.length];
        random.nextBytes(atEnd);
        System.arraycopy(value, 0, atEnd, 3, value.length);
        byte[] inside = new byte[5 + value.length + 20];
        random.nextBytes(inside);
        System.arraycopy(value, 0, inside, 5, value.length);
        return new byte[][] {atEnd, inside};
    }

    /**
     * The comparison itself, which a lookup reaches only for values of the same hash: equal ranges
     * of every length, and ones that differ in any single byte, in arrays that end with the range
     * or go on past it.
     */
    @Test
    void rangesAreTheSameExactlyWhenEveryByteIs() {
        SplittableRandom random = new SplittableRandom(7);
        for (int length = 0; length <= 80; length++) {
            for (int tail : new int[] {0, 3, 8}) {
                byte[] value = new byte[length];
                random.nextBytes(value);
                byte[] page = new byte[2 + length + tail];
                random.nextBytes(page);
                System.arraycopy(value, 0, page, 2, length);
                byte[] bytes = new byte[5 + length + (8 - tail)];
                random.nextBytes(bytes);
                System.arraycopy(value, 0, bytes, 5, length);
                assertTrue(StringDictionary.sameBytes(page, 2, bytes, 5, length), "equal, length " + length);
                for (int i = 0; i < length; i++) {
                    bytes[5 + i] ^= (byte) (1 << (i & 7));
                    assertFalse(StringDictionary.sameBytes(page, 2, bytes, 5, length),
                            "byte " + i + " of " + length + " differs");
                    bytes[5 + i] ^= (byte) (1 << (i & 7));
                }
            }
        }
    }

    @Test
    void eachDistinctValueGetsOneIdWhereverItsBytesLie() {
        SplittableRandom random = new SplittableRandom(5);
        List<byte[]> values = new ArrayList<>();
        // Through the lengths compared as one masked word, as words, and by the JDK (over 64).
        for (int length = 0; length <= 80; length++) {
            for (int variant = 0; variant < 6; variant++) {
                byte[] value = new byte[length];
                random.nextBytes(value);
                values.add(value);
                if (length > 0) {
                    byte[] lastByteDiffers = value.clone();
                    lastByteDiffers[length - 1] ^= 1;
                    values.add(lastByteDiffers);
                    byte[] firstByteDiffers = value.clone();
                    firstByteDiffers[0] ^= (byte) 0x80;
                    values.add(firstByteDiffers);
                    byte[] middleByteDiffers = value.clone();
                    middleByteDiffers[length / 2] ^= 0x10;
                    values.add(middleByteDiffers);
                }
            }
        }
        values.add("INFO".getBytes(StandardCharsets.UTF_8));
        values.add("INF".getBytes(StandardCharsets.UTF_8));
        values.add("INFO\0".getBytes(StandardCharsets.UTF_8));

        StringDictionary dictionary = new StringDictionary(1 << 20, new StringBounds(
                org.apache.parquet.schema.Types.optional(org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY)
                        .as(org.apache.parquet.schema.LogicalTypeAnnotation.stringType()).named("s")));
        Map<String, Integer> ids = new HashMap<>();
        for (int round = 0; round < 3; round++) {
            for (byte[] value : values) {
                String key = java.util.Arrays.toString(value);
                for (byte[] place : places(value, random)) {
                    int from = place.length == 3 + value.length ? 3 : 5;
                    int id = dictionary.idOf(place, from, value.length);
                    Integer known = ids.putIfAbsent(key, id);
                    assertEquals(known == null ? id : known, id, "id of " + key);
                }
            }
        }
        assertEquals(ids.size(), dictionary.size());
        assertEquals(ids.size(), ids.values().stream().distinct().count());
        assertNotEquals(ids.get(java.util.Arrays.toString("INFO".getBytes(StandardCharsets.UTF_8))),
                ids.get(java.util.Arrays.toString("INFO\0".getBytes(StandardCharsets.UTF_8))));
    }
}
