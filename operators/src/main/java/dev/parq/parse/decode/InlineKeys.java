package dev.parq.parse.decode;

import java.util.Arrays;

import dev.parq.json.ByteScan;

/**
 * Finds which field of a ROW a key in the line's bytes names, for the inline path. A key is first
 * compared with the field that stood at the same position in the previous object, since the lines
 * of one source repeat their key order whatever the schema's order. Each name is held as the bytes
 * its key takes without whitespace, closing quote and colon included, so that one or two word
 * comparisons check the key, its end and the colon together.
 */
final class InlineKeys {

    /** name + '"' + ':' for each field; null where the name holds a byte JSON must escape. */
    private final byte[][] patterns;
    private final long[] firstWords;
    private final long[] firstMasks;
    private final long[] secondWords;
    private final long[] secondMasks;
    /** The fields in the key order of the last object, and how many. */
    private final int[] order;
    private int orderLength;
    /** The field that the last successful {@link #match} found. */
    private int field;

    InlineKeys(byte[][] names) {
        int n = names.length;
        patterns = new byte[n][];
        firstWords = new long[n];
        firstMasks = new long[n];
        secondWords = new long[n];
        secondMasks = new long[n];
        for (int i = 0; i < n; i++) {
            if (!isPlain(names[i])) {
                continue;
            }
            byte[] pattern = Arrays.copyOf(names[i], names[i].length + 2);
            pattern[pattern.length - 2] = '"';
            pattern[pattern.length - 1] = ':';
            patterns[i] = pattern;
            firstWords[i] = Keys.prefix(pattern);
            firstMasks[i] = Keys.prefixMask(pattern);
            byte[] second = Arrays.copyOfRange(pattern, Math.min(Long.BYTES, pattern.length), pattern.length);
            secondWords[i] = Keys.prefix(second);
            secondMasks[i] = Keys.prefixMask(second);
        }
        order = new int[n];
    }

    /** Whether a key's raw bytes can equal the name: the name holds nothing JSON would escape. */
    private static boolean isPlain(byte[] name) {
        for (byte b : name) {
            if ((b >= 0 && b < 0x20) || b == '"' || b == '\\') {
                return false;
            }
        }
        return true;
    }

    /**
     * Matches the key whose content starts at bytes[from], the position-th key of its object.
     * Returns the index just after its colon, {@link #field()} being the field it names; or -1 if
     * it names none or is written in a way this does not take (escapes).
     */
    int match(byte[] bytes, int from, int limit, int position) {
        int predicted = position < orderLength ? order[position] : -1;
        if (predicted >= 0) {
            int end = keyEnd(bytes, from, limit, predicted);
            if (end >= 0) {
                field = predicted;
                return end;
            }
        }
        for (int i = 0; i < patterns.length; i++) {
            if (i != predicted) {
                int end = keyEnd(bytes, from, limit, i);
                if (end >= 0) {
                    field = i;
                    return end;
                }
            }
        }
        return -1;
    }

    int field() {
        return field;
    }

    /** Records that field stood at position, for the next object's prediction. */
    void record(int position, int field) {
        order[position] = field;
    }

    /** Ends an object that had count keys. */
    void endObject(int count) {
        orderLength = count;
    }

    /** The index after the colon if the key at bytes[from] is field i's name, or -1. */
    private int keyEnd(byte[] bytes, int from, int limit, int i) {
        byte[] pattern = patterns[i];
        if (pattern == null) {
            return -1;
        }
        int m = pattern.length;
        if (from + 2 * Long.BYTES <= limit ? wordsMatch(bytes, from, i, pattern)
                : from + m <= limit && Arrays.equals(bytes, from, from + m, pattern, 0, m)) {
            return from + m;
        }
        int colon = from + m - 1;
        if (colon < limit && (bytes[colon] == ' ' || bytes[colon] == '\t' || bytes[colon] == '\r')) {
            return spacedKeyEnd(bytes, from, limit, pattern);
        }
        return -1;
    }

    /** Whether bytes[from] starts with field i's pattern; at least 16 bytes are readable there. */
    private boolean wordsMatch(byte[] bytes, int from, int i, byte[] pattern) {
        int m = pattern.length;
        if ((ByteScan.word(bytes, from) & firstMasks[i]) != firstWords[i]) {
            return false;
        }
        if (m <= Long.BYTES) {
            return true;
        }
        if ((ByteScan.word(bytes, from + Long.BYTES) & secondMasks[i]) != secondWords[i]) {
            return false;
        }
        return m <= 2 * Long.BYTES || Arrays.equals(bytes, from + 2 * Long.BYTES, from + m, pattern, 2 * Long.BYTES, m);
    }

    /** The index after the colon for a key with whitespace before its colon, or -1. */
    private static int spacedKeyEnd(byte[] bytes, int from, int limit, byte[] pattern) {
        int quote = from + pattern.length - 2;
        if (!Arrays.equals(bytes, from, quote + 1, pattern, 0, pattern.length - 1)) {
            return -1;
        }
        int colon = ByteScan.whitespaceEnd(bytes, quote + 1, limit);
        return colon < limit && bytes[colon] == ':' ? colon + 1 : -1;
    }
}
