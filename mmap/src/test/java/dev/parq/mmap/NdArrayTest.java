package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NdArrayTest {

    private static IntArray matrix2x3() {
        return IntArray.of(new int[] {0, 1, 2, 3, 4, 5}, 2, 3);
    }

    @Test
    void indexesInCOrder() {
        IntArray matrix = matrix2x3();
        assertArrayEquals(new long[] {3, 1}, matrix.strides());
        assertEquals(5, matrix.get(1, 2));
        assertEquals(5, matrix.get(5));
        assertTrue(matrix.isContiguous());
    }

    @Test
    void transposeSharesStorageAndIsNotContiguous() {
        IntArray matrix = matrix2x3();
        IntArray transposed = matrix.transpose();
        assertArrayEquals(new long[] {3, 2}, transposed.shape());
        assertArrayEquals(new long[] {1, 3}, transposed.strides());
        assertFalse(transposed.isContiguous());
        assertArrayEquals(new int[] {0, 3, 1, 4, 2, 5}, transposed.toArray());
        transposed.set(2, 1, 42);
        assertEquals(42, matrix.get(1, 2));
    }

    @Test
    void sliceOfRowsIsContiguousSliceOfColumnsIsNot() {
        IntArray matrix = matrix2x3();
        IntArray row = matrix.slice(0, 1, 2);
        assertTrue(row.isContiguous());
        assertArrayEquals(new int[] {3, 4, 5}, row.toArray());
        IntArray columns = matrix.slice(1, 1, 3);
        assertFalse(columns.isContiguous());
        assertArrayEquals(new int[] {1, 2, 4, 5}, columns.toArray());
        assertEquals(0, matrix.slice(1, 2, 2).length());
    }

    @Test
    void copyOfAViewIsContiguousAndIndependent() {
        IntArray matrix = matrix2x3();
        IntArray copy = matrix.transpose().copy();
        assertTrue(copy.isContiguous());
        assertArrayEquals(new int[] {0, 3, 1, 4, 2, 5}, copy.toArray());
        copy.set(0, 99);
        assertEquals(0, matrix.get(0));
    }

    @Test
    void fourIndicesAndPermutedAxes() {
        long[] shape = {2, 3, 4, 5};
        double[] values = new double[120];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        DoubleArray array = DoubleArray.of(values, shape);
        assertEquals(1 * 60 + 2 * 20 + 3 * 5 + 4, array.get(1, 2, 3, 4));
        DoubleArray permuted = array.transpose(3, 0, 1, 2);
        assertEquals(array.get(1, 2, 3, 4), permuted.get(4, 1, 2, 3));
        assertEquals(array.get(1, 2, 3, 4), array.slice(3, 4, 5).get(1, 2, 3, 0));
    }

    @Test
    void wrongIndexCountAndOutOfBoundsAreRefused() {
        IntArray matrix = matrix2x3();
        assertThrows(IllegalArgumentException.class, () -> matrix.get(0, 0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> matrix.get(2, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> matrix.get(6));
        assertThrows(IllegalArgumentException.class, () -> matrix.transpose(0, 0));
    }

    @Test
    void readOnlyViewRefusesSet() {
        LongArray values = LongArray.of(new long[] {1, 2}).readOnly();
        UnsupportedOperationException e =
                assertThrows(UnsupportedOperationException.class, () -> values.set(0, 5L));
        assertTrue(e.getMessage().contains("read-only"));
    }

    @Test
    void zeroDimensionalArrayHasOneElement() {
        FloatArray scalar = FloatArray.of(new float[] {2.5f}, new long[0]);
        assertEquals(0, scalar.ndim());
        assertEquals(1, scalar.length());
        assertEquals(2.5f, scalar.get(0));
    }

    @Test
    void valuesMustFillTheShape() {
        assertThrows(IllegalArgumentException.class, () -> FloatArray.of(new float[3], 2, 2));
    }

    @Test
    void heapStorageSpansChunks() {
        ElementStorage storage = ElementStorage.allocateHeap(64, 16);
        LongArray array = new LongArray(storage, new long[] {8}, new long[] {1}, 0, true);
        for (int i = 0; i < 8; i++) {
            array.set(i, i * 10L);
        }
        assertArrayEquals(new long[] {0, 10, 20, 30, 40, 50, 60, 70}, array.toArray());
        assertArrayEquals(new long[] {0, 10, 20, 30, 40, 50, 60, 70}, array.copy().toArray());
    }

    @Test
    void bulkReadsAndWritesCrossChunksAndFollowStrides() {
        ElementStorage storage = ElementStorage.allocateHeap(80, 16);
        FloatArray array = new FloatArray(storage, new long[] {4, 5}, new long[] {5, 1}, 0, true);
        float[] values = new float[20];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        array.set(0, values, 0, 20);
        float[] middle = new float[9];
        array.get(3, middle, 1, 7);
        assertArrayEquals(new float[] {0, 3, 4, 5, 6, 7, 8, 9, 0}, middle);

        FloatArray transposed = array.transpose();
        float[] column = new float[4];
        transposed.get(4, column, 0, 4);
        assertArrayEquals(new float[] {1, 6, 11, 16}, column);
        transposed.set(0, new float[] {-1, -2}, 0, 2);
        assertEquals(-2f, array.get(1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> array.get(15, new float[10], 0, 6));
        assertThrows(UnsupportedOperationException.class,
                () -> array.readOnly().set(0, values, 0, 1));
    }
}
