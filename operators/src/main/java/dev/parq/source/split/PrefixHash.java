package dev.parq.source.split;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * The fingerprint of a file's first bytes that, with its identity, tells a followed file from
 * another: one definition for the enumerator that records it and the reader that checks it.
 */
public final class PrefixHash {

    private PrefixHash() {}

    /** The hash of the first {@code length} bytes. */
    public static long of(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }

    /**
     * The hashes of the first bytes at each of {@code lengths} within the {@code available} bytes,
     * by length, in one pass over them.
     */
    public static Map<Integer, Long> atLengths(byte[] bytes, int available, Set<Integer> lengths) {
        Map<Integer, Long> hashes = new HashMap<>();
        CRC32C crc = new CRC32C();
        int hashed = 0;
        for (int length : new TreeSet<>(lengths)) {
            if (length > available) {
                break;
            }
            crc.update(bytes, hashed, length - hashed);
            hashed = length;
            hashes.put(length, crc.getValue());
        }
        return hashes;
    }
}
