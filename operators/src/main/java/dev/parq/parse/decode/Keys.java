package dev.parq.parse.decode;

import java.nio.ByteBuffer;
import java.util.Arrays;

import dev.parq.parse.tape.Tape;

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
        return JsonStrings.unescape(tape.buffer(), from, to, scratch);
    }

    byte[] scratch() {
        return scratch;
    }

    boolean equals(Tape tape, int k, byte[] name) {
        if (tape.has(k, Tape.ESCAPED)) {
            int n = unescaped(tape, k);
            return Arrays.equals(scratch, 0, n, name, 0, name.length);
        }
        int from = tape.start(k);
        int n = tape.end(k) - from;
        if (n != name.length) {
            return false;
        }
        ByteBuffer buf = tape.buffer();
        for (int i = 0; i < n; i++) {
            if (buf.get(from + i) != name[i]) {
                return false;
            }
        }
        return true;
    }

    boolean same(Tape tape, int a, int b) {
        if (!tape.has(a, Tape.ESCAPED) && !tape.has(b, Tape.ESCAPED)) {
            int n = tape.end(a) - tape.start(a);
            return n == tape.end(b) - tape.start(b)
                    && tape.buffer().slice(tape.start(a), n).equals(tape.buffer().slice(tape.start(b), n));
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
