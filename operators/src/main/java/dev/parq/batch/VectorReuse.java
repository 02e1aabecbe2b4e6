package dev.parq.batch;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/** How a batch's vectors are emptied to be filled again: part of the batch contract, as their layout is. */
public final class VectorReuse {

    private VectorReuse() {}

    /**
     * Empties a vector for the next batch. Arrow's {@code reset()} zeroes every buffer, the
     * values too (1.3% of the task threads' time, mostly string data); the decoders write every
     * slot's validity bit, offset and value explicitly, in order, so only the validity bits and
     * the first offset start from zero here.
     */
    public static void reuse(ValueVector vector) {
        if (vector instanceof BaseVariableWidthVector) {
            vector.getValidityBuffer().setZero(0, vector.getValidityBuffer().capacity());
            vector.getOffsetBuffer().setInt(0, 0);
            ((BaseVariableWidthVector) vector).setValueCount(0);
        } else if (vector instanceof BaseFixedWidthVector) {
            vector.getValidityBuffer().setZero(0, vector.getValidityBuffer().capacity());
            ((BaseFixedWidthVector) vector).setValueCount(0);
        } else if (vector instanceof ListVector) {
            ListVector list = (ListVector) vector;
            list.getValidityBuffer().setZero(0, list.getValidityBuffer().capacity());
            list.getOffsetBuffer().setInt(0, 0);
            list.setLastSet(-1);
            reuse(list.getDataVector());
            list.setValueCount(0);
        } else if (vector instanceof StructVector) {
            StructVector struct = (StructVector) vector;
            struct.getValidityBuffer().setZero(0, struct.getValidityBuffer().capacity());
            for (ValueVector child : struct.getChildrenFromFields()) {
                reuse(child);
            }
            struct.setValueCount(0);
        } else {
            vector.reset();
        }
    }
}
