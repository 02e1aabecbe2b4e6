package dev.parq.parse.decode;

import dev.parq.json.Tape;

/**
 * Writes one JSON value from a {@link Tape} into slot {@code index} of one Arrow vector. Slots are
 * written in order and every slot is written, by {@link #decode} or {@link #writeNull}; a line that
 * fails halfway is simply written over by the next one.
 *
 * <p>A decoder may also take its value straight from the line's bytes, in the same pass that checks
 * them ({@link #decodeInline}). That path only ever takes the common shapes; for anything else, valid
 * or not, it gives up and the line goes through the tokenizer and {@link #decode}, which alone
 * decide what is an error and say so.
 *
 * <p>An abstract class rather than an interface: a line's decoders are called through this type
 * for every field, of many classes at one call site, and a virtual call costs less than an
 * interface call there (the interface's dispatch was 4% of the task threads' time).
 */
public abstract class Decoder {

    /** What {@link #decodeInline} returns when it leaves the line to the tokenizer. */
    public static final int FALLBACK = -1;

    /**
     * Decodes the non-null value at tape token {@code t}.
     *
     * @throws DecodeException if the value does not fit the column
     */
    public abstract void decode(Tape tape, int t, int index);

    /**
     * Checks and decodes the non-null value starting at bytes[p], reading only below limit, and
     * returns the index just after it; or returns {@link #FALLBACK}, having perhaps written slot
     * index already, which the fallback then writes again. Accepts only what the tokenizer and
     * {@link #decode} accept, and writes exactly what they would.
     */
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        return FALLBACK;
    }

    public abstract void writeNull(int index);

    /**
     * Writes null into slots [from, to), which follow the last slot written (or write some of them
     * again). Decoders that can do so in bulk override this; an absent ROW field uses it to write
     * its children's nulls for a run of rows at once.
     */
    public void writeNulls(int from, int to) {
        for (int i = from; i < to; i++) {
            writeNull(i);
        }
    }

    /**
     * Called before the vector's value count is set to {@code count}: forgets slots beyond it that a
     * rejected line may have written.
     */
    public void finish(int count) {}
}
