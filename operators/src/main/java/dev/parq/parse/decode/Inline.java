package dev.parq.parse.decode;

import dev.parq.json.ByteScan;

/** What the containers' inline paths share: a value that may be null, and what follows it. */
final class Inline {

    private Inline() {}

    /** The value at bytes[p], null or not, into slot index; the index after it, or FALLBACK. */
    static int value(Decoder decoder, byte[] bytes, int p, int limit, int index) {
        if (p >= limit) {
            return Decoder.FALLBACK;
        }
        if (bytes[p] != 'n') {
            return decoder.decodeInline(bytes, p, limit, index);
        }
        int end = ByteScan.literalEnd(bytes, p, limit);
        if (end < 0) {
            return Decoder.FALLBACK;
        }
        decoder.writeNull(index);
        return end;
    }

    /**
     * After a member of a container that ends with close: the index of the ',' or of close that
     * follows, whitespace skipped; or FALLBACK for anything else.
     */
    static int separator(byte[] bytes, int p, int limit, byte close) {
        p = ByteScan.whitespaceEnd(bytes, p, limit);
        return p < limit && (bytes[p] == ',' || bytes[p] == close) ? p : Decoder.FALLBACK;
    }
}
