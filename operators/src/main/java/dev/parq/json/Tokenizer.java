package dev.parq.json;

import java.util.Locale;

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
        return ByteScan.whitespaceEnd(buf, p, limit);
    }

    /** Scans a string starting at its opening quote; returns the index after the closing quote. */
    private int string(int quote) {
        int p = quote + 1;
        int flags = Tape.STRING;
        while (true) {
            p = ByteScan.plainEnd(buf, p, limit);
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
                int n = ByteScan.escapeLength(buf, p, limit);
                if (n < 0) {
                    return badEscape(p);
                }
                p += n;
            } else if (c >= 0x20) {
                p++;
            } else if (c >= 0) {
                return syntaxAt(p, c == '\n' ? "unterminated string" : "control character in string");
            } else {
                int n = ByteScan.utf8Length(buf, p, limit);
                if (n < 0) {
                    fail(p, "invalid UTF-8 at column " + column(p));
                    return -1;
                }
                p += n;
            }
        }
    }

    /** Reports the escape at p that {@link ByteScan#escapeLength} refused, at the byte that is wrong. */
    private int badEscape(int p) {
        if (p + 1 == limit) {
            return syntaxAt(p + 1, "unterminated string");
        }
        if (buf[p + 1] != 'u') {
            return syntaxAt(p + 1, "invalid escape in string");
        }
        int unit = ByteScan.hex4(buf, p + 2, limit);
        if (unit >= 0xD800 && unit <= 0xDFFF) {
            fail(p, String.format(Locale.ROOT, "lone surrogate escape \\u%04X at column %d: it is not"
                    + " half of a surrogate pair, names no character, and cannot be stored as UTF-8", unit, column(p)));
            return -1;
        }
        int i = p + 2;
        while (i < p + 6 && i < limit && ByteScan.hex(buf[i]) >= 0) {
            i++;
        }
        return syntaxAt(i, "invalid \\u escape");
    }

    private int number(int from) {
        int p = from;
        int flags = Tape.NUMBER;
        if (buf[p] == '-') {
            p++;
        }
        if (p == limit || !ByteScan.digit(buf[p])) {
            return syntaxAt(p, "invalid number");
        }
        if (buf[p] == '0') {
            p++;
        } else {
            p = ByteScan.digitsEnd(buf, p + 1, limit);
        }
        if (p < limit && buf[p] == '.') {
            flags |= Tape.NOT_INTEGER;
            p++;
            if (p == limit || !ByteScan.digit(buf[p])) {
                return syntaxAt(p, "invalid number: expected a digit after '.'");
            }
            p = ByteScan.digitsEnd(buf, p + 1, limit);
        }
        if (p < limit && (buf[p] == 'e' || buf[p] == 'E')) {
            flags |= Tape.NOT_INTEGER;
            p++;
            if (p < limit && (buf[p] == '+' || buf[p] == '-')) {
                p++;
            }
            if (p == limit || !ByteScan.digit(buf[p])) {
                return syntaxAt(p, "invalid number: expected a digit in the exponent");
            }
            while (p < limit && ByteScan.digit(buf[p])) {
                p++;
            }
        }
        tape.add(flags, from, p);
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

    /** A syntax error at p, unless the byte there is not UTF-8 at all: then that is the reason. */
    private int unexpected(int p, String expected) {
        if (p < limit && buf[p] < 0 && ByteScan.utf8Length(buf, p, limit) < 0) {
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
