package dev.parq.json;

import java.util.Arrays;

/**
 * One validated JSON line as a flat list of tokens, filled by {@link Tokenizer} and read by the
 * decoders. A container token knows the index just past its last descendant, so a decoder skips a
 * whole subtree in one step and never recurses into values it does not need.
 *
 * <p>Token positions are indices into {@link #bytes()}, the tokenizer's copy of the input. For a string, start and end
 * enclose its content without the quotes; for any other value they enclose its JSON text.
 */
public final class Tape {

    public static final int OBJECT = 1;
    public static final int ARRAY = 2;
    public static final int STRING = 3;
    public static final int NUMBER = 4;
    public static final int TRUE = 5;
    public static final int FALSE = 6;
    public static final int NULL = 7;

    private static final int KIND_MASK = 0xFF;
    /** A string with at least one backslash escape. */
    public static final int ESCAPED = 1 << 8;
    /** A number with a fraction or an exponent. */
    public static final int NOT_INTEGER = 1 << 9;

    private static final int STRIDE = 4;

    private int[] tokens = new int[STRIDE * 256];
    private int size;
    private byte[] buffer;

    public byte[] bytes() {
        return buffer;
    }

    public int kind(int t) {
        return tokens[t * STRIDE] & KIND_MASK;
    }

    public boolean has(int t, int flag) {
        return (tokens[t * STRIDE] & flag) != 0;
    }

    public int start(int t) {
        return tokens[t * STRIDE + 1];
    }

    public int end(int t) {
        return tokens[t * STRIDE + 2];
    }

    /** The index of the token after this value and all its descendants. */
    public int next(int t) {
        return tokens[t * STRIDE + 3];
    }

    /** The JSON text of the value: for a string, including its quotes. */
    public int rawStart(int t) {
        return kind(t) == STRING ? start(t) - 1 : start(t);
    }

    public int rawEnd(int t) {
        return kind(t) == STRING ? end(t) + 1 : end(t);
    }

    /** A short name of the JSON kind for messages: "string", "number", ... */
    public String describe(int t) {
        switch (kind(t)) {
            case OBJECT:
                return "object";
            case ARRAY:
                return "array";
            case STRING:
                return "string";
            case NUMBER:
                return "number";
            case TRUE:
            case FALSE:
                return "boolean";
            default:
                return "null";
        }
    }

    /** The JSON text of a value as a String, cut to {@code max} characters, for messages. */
    public String text(int t, int max) {
        int from = rawStart(t);
        int to = rawEnd(t);
        int n = Math.min(to - from, max);
        byte[] bytes = new byte[n];
        System.arraycopy(buffer, from, bytes, 0, n);
        String s = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        return n < to - from ? s + "..." : s;
    }

    void reset(byte[] buffer) {
        this.buffer = buffer;
        this.size = 0;
    }

    int add(int kindAndFlags, int start, int end) {
        int t = size;
        int i = t * STRIDE;
        if (i + STRIDE > tokens.length) {
            tokens = Arrays.copyOf(tokens, tokens.length * 2);
        }
        tokens[i] = kindAndFlags;
        tokens[i + 1] = start;
        tokens[i + 2] = end;
        tokens[i + 3] = t + 1;
        size = t + 1;
        return t;
    }

    void close(int t, int end) {
        tokens[t * STRIDE + 2] = end;
        tokens[t * STRIDE + 3] = size;
    }
}
