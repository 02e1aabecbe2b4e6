package dev.parq.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The byte-level rules of JSON text, shared by the {@link Tokenizer} and the decoders' inline path
 * so that both accept exactly the same bytes. Every method reads only below its {@code limit}.
 *
 * <p>The methods that return -1 for "not valid here" say nothing about why: the tokenizer, which
 * alone reports errors, locates and words them itself.
 */
public final class ByteScan {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;
    private static final long ZEROS = 0x3030303030303030L;
    /** Added to a byte, sets its high bit from '9' + 1 = 0x3A up. */
    private static final long ABOVE_NINE = 0x4646464646464646L;

    /** The deepest nesting {@link #valueEnd} takes; one long holds the kinds of the open containers. */
    public static final int MAX_SKIP_DEPTH = Long.SIZE;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private ByteScan() {}

    /** The eight bytes at p as one little-endian word; p + 8 must not pass the array's end. */
    public static long word(byte[] bytes, int p) {
        return (long) LONGS.get(bytes, p);
    }

    /**
     * Skips, eight bytes at a time, string content that needs no attention: no quote, backslash,
     * control character or non-ASCII byte. Returns the first byte that might need attention; in the
     * last seven bytes before limit it stops at once, whatever the byte.
     */
    public static int plainEnd(byte[] bytes, int p, int limit) {
        while (p + Long.BYTES <= limit) {
            long word = word(bytes, p);
            // A byte's high bit ends up set if it is a quote, a backslash, below 0x20 or not ASCII;
            // a borrow can only flag a byte above one already flagged, so the lowest flag is exact.
            long special = (((word ^ QUOTES) - ONES) | ((word ^ BACKSLASHES) - ONES) | (word - SPACES) | word)
                    & HIGH_BITS;
            if (special != 0) {
                return p + (Long.numberOfTrailingZeros(special) >>> 3);
            }
            p += Long.BYTES;
        }
        return p;
    }

    /**
     * The index of the closing quote of the string whose content starts at p, checked as the
     * tokenizer checks it (escapes, control characters, UTF-8), or -1 if it is not valid.
     */
    public static int stringEnd(byte[] bytes, int p, int limit) {
        while (true) {
            p = plainEnd(bytes, p, limit);
            if (p == limit) {
                return -1;
            }
            byte c = bytes[p];
            int n;
            if (c == '"') {
                return p;
            } else if (c == '\\') {
                n = escapeLength(bytes, p, limit);
            } else if (c >= 0x20) {
                n = 1;
            } else if (c >= 0) {
                return -1;
            } else {
                n = utf8RunLength(bytes, p, limit);
            }
            if (n < 0) {
                return -1;
            }
            p += n;
        }
    }

    /**
     * The length of the run of well-formed UTF-8 sequences at p (whose first byte is not ASCII),
     * or -1 if one is not: text in other scripts is mostly such runs, checked here in one loop.
     */
    private static int utf8RunLength(byte[] bytes, int from, int limit) {
        int p = from;
        do {
            int n = utf8Length(bytes, p, limit);
            if (n < 0) {
                return -1;
            }
            p += n;
        } while (p < limit && bytes[p] < 0);
        return p - from;
    }

    /**
     * The length of the valid escape starting with the backslash at p, or -1: 2, 6 for a
     * {@code \\u} escape, 12 for the two escapes of a surrogate pair. A surrogate escape that is
     * not half of a pair is not valid: it names no character, and UTF-8 cannot store it.
     */
    public static int escapeLength(byte[] bytes, int p, int limit) {
        if (p + 1 >= limit) {
            return -1;
        }
        byte e = bytes[p + 1];
        if (e == 'u') {
            int unit = hex4(bytes, p + 2, limit);
            if (unit < 0xD800 || unit > 0xDFFF) {
                return unit < 0 ? -1 : 6;
            }
            if (unit > 0xDBFF || p + 8 > limit || bytes[p + 6] != '\\' || bytes[p + 7] != 'u') {
                return -1;
            }
            int low = hex4(bytes, p + 8, limit);
            return low >= 0xDC00 && low <= 0xDFFF ? 12 : -1;
        }
        return e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't' ? 2 : -1;
    }

    /**
     * The length of the well-formed UTF-8 sequence at p (whose first byte is not ASCII), or -1:
     * no overlong forms, no encoded surrogates, nothing above U+10FFFF, nothing cut short.
     */
    public static int utf8Length(byte[] bytes, int p, int limit) {
        int b0 = bytes[p] & 0xFF;
        int n;
        int lo = 0x80;
        int hi = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            n = 2;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            n = 3;
            if (b0 == 0xE0) {
                lo = 0xA0;
            } else if (b0 == 0xED) {
                hi = 0x9F;
            }
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            n = 4;
            if (b0 == 0xF0) {
                lo = 0x90;
            } else if (b0 == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return -1;
        }
        if (p + n > limit) {
            return -1;
        }
        int b1 = bytes[p + 1] & 0xFF;
        if (b1 < lo || b1 > hi) {
            return -1;
        }
        for (int i = 2; i < n; i++) {
            int b = bytes[p + i] & 0xFF;
            if (b < 0x80 || b > 0xBF) {
                return -1;
            }
        }
        return n;
    }

    /** The index of the first byte at or after p that is not a digit; eight bytes at a time. */
    public static int digitsEnd(byte[] bytes, int p, int limit) {
        while (p + Long.BYTES <= limit) {
            long word = word(bytes, p);
            // High bit set for a byte below '0', above '9' or not ASCII; exact up to the first one.
            long other = ((word - ZEROS) | (word + ABOVE_NINE) | word) & HIGH_BITS;
            if (other != 0) {
                return p + (Long.numberOfTrailingZeros(other) >>> 3);
            }
            p += Long.BYTES;
        }
        while (p < limit && digit(bytes[p])) {
            p++;
        }
        return p;
    }

    /**
     * The end of the JSON number at p, or -1 if there is none. The end is where the grammar stops:
     * what follows (a comma, or a stray digit after a leading zero) is for the caller to judge.
     */
    public static int numberEnd(byte[] bytes, int p, int limit) {
        if (p < limit && bytes[p] == '-') {
            p++;
        }
        if (p == limit || !digit(bytes[p])) {
            return -1;
        }
        p = bytes[p] == '0' ? p + 1 : digitsEnd(bytes, p + 1, limit);
        if (p < limit && bytes[p] == '.') {
            if (p + 1 == limit || !digit(bytes[p + 1])) {
                return -1;
            }
            p = digitsEnd(bytes, p + 2, limit);
        }
        if (p < limit && (bytes[p] == 'e' || bytes[p] == 'E')) {
            p++;
            if (p < limit && (bytes[p] == '+' || bytes[p] == '-')) {
                p++;
            }
            if (p == limit || !digit(bytes[p])) {
                return -1;
            }
            p = digitsEnd(bytes, p + 1, limit);
        }
        return p;
    }

    /**
     * The index after the JSON value at p, checked as the tokenizer checks it, or -1 if it is not
     * valid or nests deeper than {@link #MAX_SKIP_DEPTH} levels. What follows it is for the caller
     * to judge. The open containers are kept as bits of one long, so this needs no stack.
     */
    public static int valueEnd(byte[] bytes, int p, int limit) {
        long objects = 0;
        int depth = 0;
        while (true) {
            if (p < 0 || p >= limit) {
                return -1;
            }
            byte c = bytes[p];
            if (c == '{' || c == '[') {
                if (depth == MAX_SKIP_DEPTH) {
                    return -1;
                }
                boolean object = c == '{';
                objects = object ? objects | 1L << depth : objects & ~(1L << depth);
                depth++;
                p = whitespaceEnd(bytes, p + 1, limit);
                if (p < limit && bytes[p] == (object ? '}' : ']')) {
                    depth--;
                    p++;
                } else {
                    p = object ? keyEnd(bytes, p, limit) : p;
                    continue;
                }
            } else {
                p = scalarEnd(bytes, p, limit);
            }
            while (p >= 0 && depth > 0) {
                p = whitespaceEnd(bytes, p, limit);
                boolean object = (objects & 1L << (depth - 1)) != 0;
                if (p == limit) {
                    return -1;
                } else if (bytes[p] == ',') {
                    p = whitespaceEnd(bytes, p + 1, limit);
                    p = object ? keyEnd(bytes, p, limit) : p;
                    break;
                } else if (bytes[p] == (object ? '}' : ']')) {
                    depth--;
                    p++;
                } else {
                    return -1;
                }
            }
            if (p < 0 || depth == 0) {
                return p;
            }
        }
    }

    /** After an object key at p and its colon, the index of its value (whitespace skipped), or -1. */
    private static int keyEnd(byte[] bytes, int p, int limit) {
        if (p >= limit || bytes[p] != '"') {
            return -1;
        }
        int quote = stringEnd(bytes, p + 1, limit);
        if (quote < 0) {
            return -1;
        }
        int colon = whitespaceEnd(bytes, quote + 1, limit);
        if (colon == limit || bytes[colon] != ':') {
            return -1;
        }
        return whitespaceEnd(bytes, colon + 1, limit);
    }

    /** The index after the string, number or literal at p, or -1. */
    private static int scalarEnd(byte[] bytes, int p, int limit) {
        byte c = bytes[p];
        if (c == '"') {
            int quote = stringEnd(bytes, p + 1, limit);
            return quote < 0 ? -1 : quote + 1;
        }
        if (c == 't' || c == 'f' || c == 'n') {
            return literalEnd(bytes, p, limit);
        }
        return numberEnd(bytes, p, limit);
    }

    /** The index after the literal at p (true, false or null), or -1. */
    public static int literalEnd(byte[] bytes, int p, int limit) {
        byte c = bytes[p];
        byte[] literal = c == 't' ? TRUE : c == 'f' ? FALSE : c == 'n' ? NULL : null;
        if (literal == null || p + literal.length > limit) {
            return -1;
        }
        for (int i = 1; i < literal.length; i++) {
            if (bytes[p + i] != literal[i]) {
                return -1;
            }
        }
        return p + literal.length;
    }

    /** The first index at or after p that is not JSON whitespace within a line (space, tab, CR). */
    public static int whitespaceEnd(byte[] bytes, int p, int limit) {
        while (p < limit) {
            byte c = bytes[p];
            if (c != ' ' && c != '\t' && c != '\r') {
                return p;
            }
            p++;
        }
        return p;
    }

    /** The index of the first backslash in bytes[from, to), or to; eight bytes at a time. */
    public static int indexOfBackslash(byte[] bytes, int from, int to) {
        int p = from;
        while (p + Long.BYTES <= to) {
            long found = zeroByte(word(bytes, p) ^ BACKSLASHES);
            if (found != 0) {
                return p + (Long.numberOfTrailingZeros(found) >>> 3);
            }
            p += Long.BYTES;
        }
        while (p < to && bytes[p] != '\\') {
            p++;
        }
        return p;
    }

    /** The high bit of each zero byte is set; bytes above the first zero byte may be flagged wrongly. */
    private static long zeroByte(long word) {
        return (word - ONES) & ~word & HIGH_BITS;
    }

    public static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** The value of the four hex digits at p, or -1 if they are not four hex digits before limit. */
    public static int hex4(byte[] bytes, int p, int limit) {
        if (p + 4 > limit) {
            return -1;
        }
        int a = hex(bytes[p]);
        int b = hex(bytes[p + 1]);
        int c = hex(bytes[p + 2]);
        int d = hex(bytes[p + 3]);
        return (a | b | c | d) < 0 ? -1 : a << 12 | b << 8 | c << 4 | d;
    }

    /** The value of a hex digit, or -1. */
    public static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
