package dev.parq.sink.column;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;

/**
 * The Arrow vectors on the way to a leaf column that is repeated nowhere: the vector of each
 * optional ROW above the leaf, outermost first, then the leaf's own vector, all indexed by row.
 * A row's definition level is how many of them, from the top, have the row set.
 */
public final class LeafPath {

    private final ValueVector[] vectors;

    public LeafPath(ValueVector[] vectors) {
        this.vectors = vectors.clone();
    }

    public ValueVector leaf() {
        return vectors[vectors.length - 1];
    }

    /** The highest definition level, that of a row whose leaf value is present. */
    public int maxDefinitionLevel() {
        return vectors.length;
    }

    /** The validity buffers, in path order, as they are now; a refilled vector may have new ones. */
    ArrowBuf[] validityBuffers() {
        ArrowBuf[] buffers = new ArrowBuf[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            buffers[i] = vectors[i].getValidityBuffer();
        }
        return buffers;
    }

    /** The definition level of {@code row}, given {@link #validityBuffers()}. */
    static int levelOf(ArrowBuf[] validity, int row) {
        int level = 0;
        while (level < validity.length && BitVectorHelper.get(validity[level], row) != 0) {
            level++;
        }
        return level;
    }
}
