package dev.parq.parse.tape;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;


/**
 * Checks one NDJSON line against strict RFC 8259 and UTF-8, and records its tokens on a
 * {@link Tape}. The scan is iterative with an explicit stack, so nesting costs no Java stack; it
 * stops at {@link #MAX_DEPTH} levels.
 *
 * <p>A line ends at '\n' or at the end of the range. Space, tab and CR are whitespace; a raw line
 * break cannot occur inside a value, so the scan never looks past the line's end.
 */
public final class Tokenizer {

    public static final int MAX_DEPTH = 1000;

    /** The line is a JSON object; {@link #lineEnd()} is its '\n' or the range end. */
    public static final int OBJECT = 0;
    /** The line holds only whitespace. */
    public static final int BLANK = 1;
    /** The line is bad; see {@link #errorPosition()} and {@link #errorReason()}. */
    public static final int ERROR = 2;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;
    private static final long ZEROS = 0x3030303030303030L;
    /** Added to a byte, sets its high bit from '9' + 1 = 0x3A up. */
    private static final long ABOVE_NINE = 0x4646464646464646L;

    private static final int EXPECT_VALUE = 0;
    private static final int EXPECT_KEY = 1;
    private static final int AFTER_VALUE = 2;

    private final Tape tape = new Tape();
    private final int[] stack = new int[MAX_DEPTH];

    private byte[] buf;
    private int lineStart;
    private int limit;
    private int lineEnd;
    private int errorPosition;
    private String errorReason;

    public Tape tape() {
        return tape;
    }

    public int lineEnd() {
        return lineEnd;
    }

    public int errorPosition() {
        return errorPosition;
    }

    public String errorReason() {
        return errorReason;
    }

    /** Scans the line starting at {@code from}; never reads at or beyond {@code limit}. */
    public int scan(byte[] buf, int from, int limit) {
        this.buf = buf;
        this.lineStart = from;
        this.limit = limit;
        tape.reset(buf);
        int p = skipWhitespace(from);
        if (p == limit || buf[p] == '\n') {
            lineEnd = p;
            return BLANK;
        }
        byte first = buf[p];
        if (first != '{') {
            if (first == '[' || first == '"' || first == '-' || (first >= '0' && first <= '9')
                    || first == 't' || first == 'f' || first == 'n') {
                return fail(p, "top-level value is not an object");
            }
            return syntax(p, "expected '{'");
        }
        int depth = 0;
        boolean inObject = false;
        int state = EXPECT_VALUE;
        while (true) {
            if (state == EXPECT_VALUE) {
                if (p == limit) {
                    return syntax(p, "expected a value");
                }
                byte c = buf[p];
                if (c == '{' || c == '[') {
                    if (depth == MAX_DEPTH) {
                        return fail(p, "nesting deeper than " + MAX_DEPTH);
                    }
                    int t = tape.add(c == '{' ? Tape.OBJECT : Tape.ARRAY, p, 0);
                    stack[depth++] = t;
                    p = skipWhitespace(p + 1);
                    byte close = c == '{' ? (byte) '}' : (byte) ']';
                    if (p < limit && buf[p] == close) {
                        tape.close(stack[--depth], ++p);
                        state = AFTER_VALUE;
                    } else {
                        inObject = c == '{';
                        state = inObject ? EXPECT_KEY : EXPECT_VALUE;
                    }
                    continue;
                } else if (c == '"') {
                    p = string(p);
                } else if (c == '-' || (c >= '0' && c <= '9')) {
                    p = number(p);
                } else if (c == 't') {
                    p = literal(p, "true", Tape.TRUE);
                } else if (c == 'f') {
                    p = literal(p, "false", Tape.FALSE);
                } else if (c == 'n') {
                    p = literal(p, "null", Tape.NULL);
                } else {
                    return unexpected(p, "expected a value");
                }
                if (p < 0) {
                    return ERROR;
                }
                state = AFTER_VALUE;
            } else if (state == EXPECT_KEY) {
                if (p == limit || buf[p] != '"') {
                    return unexpected(p, "expected a string key");
                }
                p = string(p);
                if (p < 0) {
                    return ERROR;
                }
                if (p == limit || buf[p] != ':') {
                    p = skipWhitespace(p);
                    if (p == limit || buf[p] != ':') {
                        return unexpected(p, "expected ':'");
                    }
                }
                p = skipWhitespace(p + 1);
                state = EXPECT_VALUE;
            } else {
                p = skipWhitespace(p);
                if (depth == 0) {
                    if (p == limit || buf[p] == '\n') {
                        lineEnd = p;
                        return OBJECT;
                    }
                    return fail(p, "trailing characters after the object at column " + column(p));
                }
                byte c = p == limit ? (byte) '\n' : buf[p];
                if (c == ',') {
                    p = skipWhitespace(p + 1);
                    state = inObject ? EXPECT_KEY : EXPECT_VALUE;
                } else if (c == (inObject ? '}' : ']')) {
                    tape.close(stack[--depth], ++p);
                    inObject = depth > 0 && tape.kind(stack[depth - 1]) == Tape.OBJECT;
                } else {
                    return unexpected(p, inObject ? "expected ',' or '}'" : "expected ',' or ']'");
                }
            }
        }
    }

    private int skipWhitespace(int p) {
        while (p < limit) {
            byte c = buf[p];
            if (c != ' ' && c != '\t' && c != '\r') {
                return p;
            }
            p++;
        }
        return p;
    }

    /** Scans a string starting at its opening quote; returns the index after the closing quote. */
    private int string(int quote) {
        int p = quote + 1;
        int flags = Tape.STRING;
        while (true) {
            p = skipPlain(p);
            if (p == limit) {
                return syntaxAt(p, "unterminated string");
            }
            byte c = buf[p];
            if (c == '"') {
                tape.add(flags, quote + 1, p);
                return p + 1;
            }
            if (c == '\\') {
                flags |= Tape.ESCAPED;
                if (p + 1 == limit) {
                    return syntaxAt(p + 1, "unterminated string");
                }
                byte e = buf[p + 1];
                if (e == 'u') {
                    for (int i = p + 2; i < p + 6; i++) {
                        if (i == limit || hex(buf[i]) < 0) {
                            return syntaxAt(i, "invalid \\u escape");
                        }
                    }
                    p += 6;
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n'
                        || e == 'r' || e == 't') {
                    p += 2;
                } else {
                    return syntaxAt(p + 1, "invalid escape in string");
                }
            } else if (c >= 0x20) {
                p++;
            } else if (c >= 0) {
                return syntaxAt(p, c == '\n' ? "unterminated string" : "control character in string");
            } else {
                int n = utf8Length(p);
                if (n < 0) {
                    fail(p, "invalid UTF-8 at column " + column(p));
                    return -1;
                }
                p += n;
            }
        }
    }

    /**
     * Skips, eight bytes at a time, string content that needs no attention: no quote, backslash,
     * control character or non-ASCII byte. Returns the first byte that might need attention.
     */
    private int skipPlain(int p) {
        while (p + Long.BYTES <= limit) {
            long word = (long) LONGS.get(buf, p);
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

    /** The index of the first backslash in bytes[from, to), or to; eight bytes at a time. */
    public static int indexOfBackslash(byte[] bytes, int from, int to) {
        int p = from;
        while (p + Long.BYTES <= to) {
            long found = zeroByte((long) LONGS.get(bytes, p) ^ BACKSLASHES);
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

    /**
     * The length of the well-formed UTF-8 sequence at p (whose first byte is not ASCII), or -1:
     * no overlong forms, no encoded surrogates, nothing above U+10FFFF, nothing cut short.
     */
    private int utf8Length(int p) {
        int b0 = buf[p] & 0xFF;
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
        int b1 = buf[p + 1] & 0xFF;
        if (b1 < lo || b1 > hi) {
            return -1;
        }
        for (int i = 2; i < n; i++) {
            int b = buf[p + i] & 0xFF;
            if (b < 0x80 || b > 0xBF) {
                return -1;
            }
        }
        return n;
    }

    private int number(int from) {
        int p = from;
        int flags = Tape.NUMBER;
        if (buf[p] == '-') {
            p++;
        }
        if (p == limit || !digit(buf[p])) {
            return syntaxAt(p, "invalid number");
        }
        if (buf[p] == '0') {
            p++;
        } else {
            p = skipDigits(p + 1);
        }
        if (p < limit && buf[p] == '.') {
            flags |= Tape.NOT_INTEGER;
            p++;
            if (p == limit || !digit(buf[p])) {
                return syntaxAt(p, "invalid number: expected a digit after '.'");
            }
            p = skipDigits(p + 1);
        }
        if (p < limit && (buf[p] == 'e' || buf[p] == 'E')) {
            flags |= Tape.NOT_INTEGER;
            p++;
            if (p < limit && (buf[p] == '+' || buf[p] == '-')) {
                p++;
            }
            if (p == limit || !digit(buf[p])) {
                return syntaxAt(p, "invalid number: expected a digit in the exponent");
            }
            while (p < limit && digit(buf[p])) {
                p++;
            }
        }
        tape.add(flags, from, p);
        return p;
    }

    /** The index of the first byte at or after p that is not a digit; eight bytes at a time. */
    private int skipDigits(int p) {
        while (p + Long.BYTES <= limit) {
            long word = (long) LONGS.get(buf, p);
            // High bit set for a byte below '0', above '9' or not ASCII; exact up to the first one.
            long other = ((word - ZEROS) | (word + ABOVE_NINE) | word) & HIGH_BITS;
            if (other != 0) {
                return p + (Long.numberOfTrailingZeros(other) >>> 3);
            }
            p += Long.BYTES;
        }
        while (p < limit && digit(buf[p])) {
            p++;
        }
        return p;
    }

    private int literal(int from, String word, int kind) {
        int n = word.length();
        for (int i = 0; i < n; i++) {
            if (from + i == limit || buf[from + i] != word.charAt(i)) {
                unexpected(from + i, "expected a value");
                return -1;
            }
        }
        tape.add(kind, from, from + n);
        return from + n;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
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

    /** A syntax error at p, unless the byte there is not UTF-8 at all: then that is the reason. */
    private int unexpected(int p, String expected) {
        if (p < limit && buf[p] < 0 && utf8Length(p) < 0) {
            return fail(p, "invalid UTF-8 at column " + column(p));
        }
        return syntax(p, expected);
    }

    private int syntax(int p, String expected) {
        return fail(p, "invalid JSON at column " + column(p) + ": " + expected);
    }

    private int syntaxAt(int p, String expected) {
        syntax(p, expected);
        return -1;
    }

    private int fail(int p, String reason) {
        errorPosition = p;
        errorReason = reason;
        return ERROR;
    }

    private int column(int p) {
        return p - lineStart + 1;
    }
}
