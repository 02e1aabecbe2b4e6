package dev.parq.sink.partition;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Copies chosen rows of a vector into an empty one of the same type, in the order given. Arrow's
 * own row copy checks capacity and bounds value by value, and copies a list through its generic
 * readers and writers (each element, each struct field of it), which made copying a batch's
 * interleaved partitions cost more than parsing it. Here the target is sized once, fixed-width
 * values and strings are copied buffer to buffer, a list's rows become the list of their
 * elements, copied as rows of the element vector, and a struct's rows are copied field by field.
 */
final class RowCopy {

    private RowCopy() {
    }

    /**
     * Copies rows {@code rows[from]} to {@code rows[to - 1]} of {@code source} into rows 0 on of
     * {@code target}, whose buffers are allocated here.
     */
    static void copy(FieldVector source, FieldVector target, int[] rows, int from, int to) {
        if (source instanceof ListVector && target instanceof ListVector) {
            copyLists((ListVector) source, (ListVector) target, rows, from, to);
        } else if (source instanceof StructVector && target instanceof StructVector) {
            copyStructs((StructVector) source, (StructVector) target, rows, from, to);
        } else if (source instanceof BaseVariableWidthVector && source.getClass() == target.getClass()) {
            copyVariableWidth((BaseVariableWidthVector) source, (BaseVariableWidthVector) target, rows, from, to);
        } else if (source instanceof BaseFixedWidthVector && !(source instanceof BitVector)
                && source.getClass() == target.getClass()) {
            copyFixedWidth((BaseFixedWidthVector) source, (BaseFixedWidthVector) target, rows, from, to);
        } else {
            target.allocateNew();
            TransferPair pair = source.makeTransferPair(target);
            for (int i = from; i < to; i++) {
                pair.copyValueSafe(rows[i], i - from);
            }
        }
        target.setValueCount(to - from);
    }

    private static void copyFixedWidth(BaseFixedWidthVector source, BaseFixedWidthVector target, int[] rows,
            int from, int to) {
        int count = to - from;
        target.allocateNew(count);
        int width = source.getTypeWidth();
        ArrowBuf sourceData = source.getDataBuffer();
        ArrowBuf targetData = target.getDataBuffer();
        ArrowBuf sourceValidity = source.getValidityBuffer();
        ArrowBuf targetValidity = target.getValidityBuffer();
        for (int i = 0; i < count; i++) {
            int row = rows[from + i];
            if (BitVectorHelper.get(sourceValidity, row) != 0) {
                BitVectorHelper.setBit(targetValidity, i);
                if (width == Long.BYTES) {
                    targetData.setLong((long) i * Long.BYTES, sourceData.getLong((long) row * Long.BYTES));
                } else if (width == Integer.BYTES) {
                    targetData.setInt((long) i * Integer.BYTES, sourceData.getInt((long) row * Integer.BYTES));
                } else {
                    targetData.setBytes((long) i * width, sourceData, (long) row * width, width);
                }
            }
        }
    }

    private static void copyVariableWidth(BaseVariableWidthVector source, BaseVariableWidthVector target,
            int[] rows, int from, int to) {
        int count = to - from;
        ArrowBuf sourceOffsets = source.getOffsetBuffer();
        long bytes = 0;
        for (int i = from; i < to; i++) {
            int row = rows[i];
            bytes += offset(sourceOffsets, row + 1) - offset(sourceOffsets, row);
        }
        target.allocateNew(Math.max(1, bytes), count);
        ArrowBuf sourceData = source.getDataBuffer();
        ArrowBuf sourceValidity = source.getValidityBuffer();
        ArrowBuf targetData = target.getDataBuffer();
        ArrowBuf targetOffsets = target.getOffsetBuffer();
        ArrowBuf targetValidity = target.getValidityBuffer();
        int end = 0;
        targetOffsets.setInt(0, 0);
        for (int i = 0; i < count; i++) {
            int row = rows[from + i];
            if (BitVectorHelper.get(sourceValidity, row) != 0) {
                BitVectorHelper.setBit(targetValidity, i);
                int start = offset(sourceOffsets, row);
                int length = offset(sourceOffsets, row + 1) - start;
                targetData.setBytes(end, sourceData, start, length);
                end += length;
            }
            targetOffsets.setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH, end);
        }
        target.setLastSet(count - 1);
    }

    private static int offset(ArrowBuf offsets, int row) {
        return offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
    }

    private static void copyLists(ListVector source, ListVector target, int[] rows, int from, int to) {
        int elementCount = 0;
        for (int i = from; i < to; i++) {
            if (!source.isNull(rows[i])) {
                elementCount += source.getElementEndIndex(rows[i]) - source.getElementStartIndex(rows[i]);
            }
        }
        target.allocateNew();
        int[] elements = new int[elementCount];
        int next = 0;
        for (int i = from; i < to; i++) {
            int row = rows[i];
            if (source.isNull(row)) {
                target.setNull(i - from);
                continue;
            }
            int start = source.getElementStartIndex(row);
            int end = source.getElementEndIndex(row);
            target.startNewValue(i - from);
            for (int element = start; element < end; element++) {
                elements[next++] = element;
            }
            target.endValue(i - from, end - start);
        }
        copy(source.getDataVector(), target.getDataVector(), elements, 0, elementCount);
    }

    private static void copyStructs(StructVector source, StructVector target, int[] rows, int from, int to) {
        target.allocateNew();
        for (int i = from; i < to; i++) {
            if (source.isNull(rows[i])) {
                target.setNull(i - from);
            } else {
                target.setIndexDefined(i - from);
            }
        }
        for (int child = 0; child < source.size(); child++) {
            copy((FieldVector) source.getChildByOrdinal(child), (FieldVector) target.getChildByOrdinal(child),
                    rows, from, to);
        }
    }
}
