package dev.parq.parse.decode;

import dev.parq.parse.tape.Tape;

/**
 * Writes one JSON value from a {@link Tape} into slot {@code index} of one Arrow vector. Slots are
 * written in order and every slot is written, by {@link #decode} or {@link #writeNull}; a line that
 * fails halfway is simply written over by the next one.
 */
public interface Decoder {

    /**
     * Decodes the non-null value at tape token {@code t}.
     *
     * @throws DecodeException if the value does not fit the column
     */
    void decode(Tape tape, int t, int index);

    void writeNull(int index);

    /**
     * Called before the vector's value count is set to {@code count}: forgets slots beyond it that a
     * rejected line may have written.
     */
    default void finish(int count) {}
}
