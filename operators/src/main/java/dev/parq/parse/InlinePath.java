package dev.parq.parse;

import dev.parq.json.ByteScan;
import dev.parq.json.LineFeeds;
import dev.parq.parse.decode.StructDecoder;
import dev.parq.parse.decode.UnknownKeys;

/**
 * The decoders' one pass over a line ({@link dev.parq.parse.decode.Decoder#decodeInline}), tried
 * before the tokenizer, and how often it is tried. It takes only the common shapes and leaves
 * everything else, bad lines included, to the tokenizer, so which lines are rejected does not depend
 * on it. Each line it gives up on costs a partial decode that is thrown away, so where it keeps
 * giving up (a schema or a source it does not suit) it passes over more and more lines before it
 * tries again, and costs little there.
 */
final class InlinePath {

    /** What {@link #tryLine} returns when the tokenizer is to take the line. */
    static final int TOKENIZER = -1;
    /** What {@link #tryLine} returns for a line that goes on past the end of the window. */
    static final int CUT = -2;
    /** The most lines it is passed over for after it gave up on a line. */
    private static final int MAX_PAUSE = 1024;

    private final StructDecoder lineDecoder;
    private final UnknownKeys unknownKeys;
    private final boolean enabled;
    /** Lines still to go straight to the tokenizer, and how many the next give-up will add. */
    private int pause;
    private int nextPause = 1;

    InlinePath(StructDecoder lineDecoder, UnknownKeys unknownKeys, boolean enabled) {
        this.lineDecoder = lineDecoder;
        this.unknownKeys = unknownKeys;
        this.enabled = enabled;
    }

    /**
     * Decodes the line at window[from] into row {@code row} in one pass if it has the common shape;
     * returns its end ('\n' or limit), or {@link #TOKENIZER} with nothing counted. A blank line is
     * left to the tokenizer without counting as a give-up. When more of the range follows the window
     * ({@code more}) and the line has no end in it, returns {@link #CUT}, not counted as a give-up
     * either: the line is tried again once the window holds all of it.
     */
    int tryLine(byte[] window, int from, int limit, boolean more, int row) {
        if (!enabled) {
            return TOKENIZER;
        }
        if (pause > 0) {
            pause--;
            return TOKENIZER;
        }
        int p = ByteScan.whitespaceEnd(window, from, limit);
        if (p == limit || window[p] == '\n') {
            return TOKENIZER;
        }
        p = lineDecoder.decodeInline(window, p, limit, row);
        if (p >= 0) {
            p = ByteScan.whitespaceEnd(window, p, limit);
            if (p == limit || window[p] == '\n') {
                nextPause = 1;
                return p;
            }
        }
        unknownKeys.discard();
        if (more && LineFeeds.lineEnd(window, from, limit) == limit) {
            return CUT;
        }
        pause = nextPause;
        nextPause = Math.min(2 * nextPause, MAX_PAUSE);
        return TOKENIZER;
    }
}
