package dev.parq.json;

import java.nio.charset.StandardCharsets;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/** Unescaping of validated JSON string content into UTF-8. */
public final class JsonStrings {

    private JsonStrings() {}

    /** The text of a string token, escapes resolved. */
    public static String text(Tape tape, int t) {
        byte[] bytes = tape.bytes();
        int from = tape.start(t);
        int to = tape.end(t);
        if (!tape.has(t, Tape.ESCAPED)) {
            return new String(bytes, from, to - from, StandardCharsets.UTF_8);
        }
        byte[] text = new byte[to - from];
        return new String(text, 0, unescape(bytes, from, to, text), StandardCharsets.UTF_8);
    }

    /**
     * Unescapes src[from, to) into dst (at least to - from long: unescaping never grows text).
     * The text was validated by the tokenizer, which rejects a surrogate escape that is not half
     * of a pair, so none reaches here. Returns the number of bytes written.
     */
    public static int unescape(byte[] src, int from, int to, byte[] dst) {
        int n = 0;
        int p = from;
        while (p < to) {
            if (src[p] != '\\') {
                int run = ByteScan.indexOfBackslash(src, p + 1, to);
                System.arraycopy(src, p, dst, n, run - p);
                n += run - p;
                p = run;
                continue;
            }
            byte e = src[p + 1];
            if (e != 'u') {
                dst[n++] = simpleEscape(e);
                p += 2;
                continue;
            }
            int cp = ByteScan.hex4(src, p + 2, to);
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                int low = p + 6 <= to && src[p] == '\\' && src[p + 1] == 'u' ? ByteScan.hex4(src, p + 2, to) : -1;
                if (low < 0xDC00 || low > 0xDFFF) {
                    throw new IllegalArgumentException("lone surrogate escape in validated text");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                p += 6;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                throw new IllegalArgumentException("lone surrogate escape in validated text");
            }
            n = utf8(cp, dst, n);
        }
        return n;
    }

    private static byte simpleEscape(byte e) {
        switch (e) {
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            default:
                return e;
        }
    }

    private static int utf8(int cp, byte[] dst, int n) {
        if (cp < 0x80) {
            dst[n++] = (byte) cp;
        } else if (cp < 0x800) {
            dst[n++] = (byte) (0xC0 | cp >> 6);
            dst[n++] = (byte) (0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            dst[n++] = (byte) (0xE0 | cp >> 12);
            dst[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            dst[n++] = (byte) (0x80 | cp & 0x3F);
        } else {
            dst[n++] = (byte) (0xF0 | cp >> 18);
            dst[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
            dst[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            dst[n++] = (byte) (0x80 | cp & 0x3F);
        }
        return n;
    }
}
