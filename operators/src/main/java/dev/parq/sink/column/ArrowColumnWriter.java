package dev.parq.sink.column;

import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes the values of one Arrow vector into Parquet. There is one implementation per Arrow type;
 * a nested type holds the writers of its children. {@link ArrowColumnWriters#forVector} picks them.
 *
 * <p>Writers read the vector they were built on every time, so refilling that vector between
 * batches needs no new writer.
 */
public interface ArrowColumnWriter {

    boolean isNull(int row);

    /**
     * Writes the value at {@code row}, which is not null, as the content of the field the caller
     * has started.
     */
    void write(RecordConsumer out, int row);
}
