package dev.parq.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An input's lines read as a stream, in chunks of whole lines: a {@link LineStream}, or a reader's
 * share of one.
 */
public interface Lines extends Closeable {

    /**
     * The next chunk of whole lines (the last line of the input may lack its line feed), or null
     * at the end of the input. A chunk is valid until the next one is asked for.
     *
     * @throws CorruptInputException when a compressed stream is truncated or damaged
     */
    ByteBuffer next() throws IOException;

    /** Where the chunk last returned by {@link #next()} starts in the stream. */
    long chunkOffset();

    Compression compression();
}
