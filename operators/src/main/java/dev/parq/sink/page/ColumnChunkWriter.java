package dev.parq.sink.page;

import java.io.IOException;

/**
 * Builds one row group's pages of a leaf column that a {@link LeafPath} reaches straight from its
 * Arrow vectors, without parquet-mr's column writer; one per column chunk.
 */
public interface ColumnChunkWriter {

    /** Writes rows {@code start} to {@code end} of the column, whose vectors are {@code path}'s. */
    void write(LeafPath path, int start, int end) throws IOException;

    /** Writes what is still held; the row group is complete. */
    void flush() throws IOException;

    /**
     * Heap bytes held for this column chunk between calls, as allocated: the pages handed over
     * (compressed), the page being filled, its levels, and a dictionary.
     */
    long bufferedSize();
}
