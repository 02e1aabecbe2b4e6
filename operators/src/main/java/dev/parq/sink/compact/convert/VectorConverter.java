package dev.parq.sink.compact.convert;

import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * Takes the values of one Parquet leaf column into one Arrow vector, each at the slot its cursor
 * points at; a null value is a slot left unset. Each Arrow type has its own subclass.
 */
abstract class VectorConverter extends PrimitiveConverter {

    final Cursor cursor;
    private final ByteCount bytes;

    VectorConverter(Cursor cursor, ByteCount bytes) {
        this.cursor = cursor;
        this.bytes = bytes;
    }

    /** Counts a value of {@code size} bytes towards the batch's size. */
    final void counted(long size) {
        bytes.add(size);
    }
}
