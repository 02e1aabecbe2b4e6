package dev.parq.sink.column;

import org.apache.arrow.vector.BaseFixedWidthVector;

/** The part every fixed-width writer shares: nullness, and where the value's bytes begin. */
abstract class FixedWidthWriter implements ArrowColumnWriter {

    final BaseFixedWidthVector vector;
    private final long width;

    FixedWidthWriter(BaseFixedWidthVector vector) {
        this.vector = vector;
        this.width = vector.getTypeWidth();
    }

    @Override
    public final boolean isNull(int row) {
        return vector.isNull(row);
    }

    /** The vector's buffer may be replaced when it grows, so it is looked up on every read. */
    final long offset(int row) {
        return row * width;
    }
}
