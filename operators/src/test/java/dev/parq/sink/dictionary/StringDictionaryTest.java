package dev.parq.sink.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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

    @Test
    void eachDistinctValueGetsOneIdWhereverItsBytesLie() {
        SplittableRandom random = new SplittableRandom(5);
        List<byte[]> values = new ArrayList<>();
        for (int length = 0; length <= 40; length++) {
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
