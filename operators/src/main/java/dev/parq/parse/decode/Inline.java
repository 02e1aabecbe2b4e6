package dev.parq.parse.decode;

import java.nio.charset.StandardCharsets;

import dev.parq.parse.tape.ByteScan;

/** What the containers' inline paths share: a value that may be null, and JSON's literals. */
final class Inline {

    static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private Inline() {}

    /** The value at bytes[p], null or not, into slot index; the index after it, or FALLBACK. */
    static int value(Decoder decoder, byte[] bytes, int p, int limit, int index) {
        if (p >= limit) {
            return Decoder.FALLBACK;
        }
        if (bytes[p] != 'n') {
            return decoder.decodeInline(bytes, p, limit, index);
        }
        int end = ByteScan.literalEnd(bytes, p, limit, NULL);
        if (end < 0) {
            return Decoder.FALLBACK;
        }
        decoder.writeNull(index);
        return end;
    }
}
