package dev.parq.sink.record;

import org.apache.arrow.vector.BaseFixedWidthVector;

/**
 * The part every fixed-width writer shares: nullness, and where a value's bytes begin. Subclasses
 * ask the vector for its data buffer on every value, since growing a vector replaces the buffer.
 */
abstract class FixedWidthValueWriter implements LeafValueWriter {

    final BaseFixedWidthVector vector;
    private final long width;

    FixedWidthValueWriter(BaseFixedWidthVector vector) {
        this.vector = vector;
        this.width = vector.getTypeWidth();
    }

    @Override
    public final boolean isNull(int row) {
        return vector.isNull(row);
    }

    final long offset(int row) {
        return row * width;
    }
}
