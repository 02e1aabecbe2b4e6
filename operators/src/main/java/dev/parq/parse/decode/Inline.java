package dev.parq.parse.decode;

import dev.parq.parse.tape.ByteScan;

/** What the containers' inline paths share: a value that may be null. */
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
}
