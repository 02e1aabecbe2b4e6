package dev.parq.sink;

import java.io.IOException;

import org.apache.arrow.vector.VectorSchemaRoot;

/** One way of turning Arrow batches into a Parquet file: row by row, or column by column. */
interface BatchFileWriter {

    /** Points the column writers at {@code root}'s vectors, whose schema has been checked. */
    void bind(VectorSchemaRoot root);

    /** Writes the first {@code rows} rows of the bound vectors. */
    void write(int rows) throws IOException;

    /** Flushes the last row group and writes the footer. */
    void close() throws IOException;
}
