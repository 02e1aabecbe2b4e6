package dev.parq.parse.decode;

import java.util.Arrays;

import dev.parq.json.ByteScan;
import dev.parq.json.JsonStrings;
import dev.parq.json.Tape;

/** Compares object keys on the tape by their bytes, unescaping only keys that hold escapes. */
final class Keys {

    private byte[] scratch = new byte[64];
    private byte[] other = new byte[64];

    /** The unescaped bytes of key token k, valid until the next call; the length is returned. */
    int unescaped(Tape tape, int k) {
        int from = tape.start(k);
        int to = tape.end(k);
        if (scratch.length < to - from) {
            scratch = new byte[to - from];
        }
        return JsonStrings.unescape(tape.bytes(), from, to, scratch);
    }

    byte[] scratch() {
        return scratch;
    }

    /** The first eight bytes of a name as one little-endian word, zero-padded. */
    static long prefix(byte[] name) {
        long word = 0;
        for (int i = Math.min(name.length, Long.BYTES) - 1; i >= 0; i--) {
            word = word << 8 | (name[i] & 0xFF);
        }
        return word;
    }

    /** Selects the bytes of a name's prefix word. */
    static long prefixMask(byte[] name) {
        return name.length >= Long.BYTES ? -1L : (1L << (8 * name.length)) - 1;
    }

    /** Whether key token k is name, whose {@link #prefix} and {@link #prefixMask} are given. */
    boolean equals(Tape tape, int k, byte[] name, long prefix, long mask) {
        if (tape.has(k, Tape.ESCAPED)) {
            int n = unescaped(tape, k);
            return Arrays.equals(scratch, 0, n, name, 0, name.length);
        }
        int from = tape.start(k);
        int n = tape.end(k) - from;
        if (n != name.length) {
            return false;
        }
        return startsWith(tape.bytes(), from, tape.bytes().length, name, prefix, mask);
    }

    /**
     * Whether bytes[from, limit) starts with name, whose {@link #prefix} and {@link #prefixMask}
     * are given; name must fit below limit. The first eight bytes are compared as one word.
     */
    static boolean startsWith(byte[] bytes, int from, int limit, byte[] name, long prefix, long mask) {
        int i = 0;
        if (from + Long.BYTES <= limit) {
            if ((ByteScan.word(bytes, from) & mask) != prefix) {
                return false;
            }
            i = Long.BYTES;
        }
        for (; i < name.length; i++) {
            if (bytes[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    boolean same(Tape tape, int a, int b) {
        if (!tape.has(a, Tape.ESCAPED) && !tape.has(b, Tape.ESCAPED)) {
            int n = tape.end(a) - tape.start(a);
            return n == tape.end(b) - tape.start(b)
                    && Arrays.equals(tape.bytes(), tape.start(a), tape.start(a) + n, tape.bytes(), tape.start(b), tape.start(b) + n);
        }
        int n = unescaped(tape, a);
        if (other.length < n) {
            other = new byte[n];
        }
        System.arraycopy(scratch, 0, other, 0, n);
        int m = unescaped(tape, b);
        return Arrays.equals(scratch, 0, m, other, 0, n);
    }
}
