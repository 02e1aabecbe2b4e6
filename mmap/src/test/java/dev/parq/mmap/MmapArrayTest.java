package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parq.mmap.MmapArrayException.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MmapArrayTest {

    @TempDir
    Path dir;

    @Test
    void writesTheHeaderByteForByte() throws Exception {
        Path file = dir.resolve("a.mmap");
        try (MmapArray<IntArray> array = MmapArray.create(file, IntArray.of(new int[] {7, -1}, 1, 2))) {
            assertEquals(Path.of(file.toString()), array.filePath());
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(64 + 8, bytes.capacity());
        assertEquals("MMAP", new String(Arrays.copyOf(bytes.array(), 4), "US-ASCII"));
        assertEquals(1, bytes.get(4));
        assertEquals(3, bytes.get(5));
        assertEquals(2, bytes.getShort(6));
        assertEquals(2, bytes.getLong(8));
        assertEquals(1, bytes.getLong(16));
        assertEquals(2, bytes.getLong(24));
        for (int at = 32; at < 64; at++) {
            assertEquals(0, bytes.get(at), "padding byte " + at);
        }
        assertEquals(7, bytes.getInt(64));
        assertEquals(-1, bytes.getInt(68));
    }

    @Test
    void roundTripsEveryElementType() throws Exception {
        float[] floats = {1.5f, Float.NaN, -0.0f, Float.MAX_VALUE, Float.MIN_VALUE, -3f};
        double[] doubles = {1.5, Double.NaN, -0.0, Double.MAX_VALUE, Double.MIN_VALUE, -3};
        int[] ints = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 42};
        long[] longs = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 42};
        MmapArray.create(dir.resolve("f"), FloatArray.of(floats, 2, 3)).close();
        MmapArray.create(dir.resolve("d"), DoubleArray.of(doubles, 3, 2)).close();
        MmapArray.create(dir.resolve("i"), IntArray.of(ints, 6)).close();
        MmapArray.create(dir.resolve("l"), LongArray.of(longs, 1, 6)).close();
        try (MmapArray<FloatArray> f = MmapArray.openReadOnly(dir.resolve("f"), DType.FLOAT32);
                MmapArray<DoubleArray> d = MmapArray.openReadOnly(dir.resolve("d"), DType.FLOAT64);
                MmapArray<IntArray> i = MmapArray.openReadOnly(dir.resolve("i"), DType.INT32);
                MmapArray<LongArray> l = MmapArray.openReadOnly(dir.resolve("l"), DType.INT64)) {
            assertArrayEquals(floats, f.view().toArray());
            assertArrayEquals(doubles, d.view().toArray());
            assertArrayEquals(ints, i.view().toArray());
            assertArrayEquals(longs, l.view().toArray());
            assertArrayEquals(new long[] {2, 3}, f.shape());
            assertArrayEquals(new long[] {2, 1}, d.strides());
            assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(f.view().get(0, 2)));
        }
    }

    @Test
    void zeroDimensionalSixDimensionalAndEmptyShapes() throws Exception {
        MmapArray.create(dir.resolve("scalar"), DoubleArray.of(new double[] {9.25}, new long[0])).close();
        try (MmapArray<?> scalar = MmapArray.openReadOnly(dir.resolve("scalar"))) {
            assertEquals(0, scalar.ndim());
            assertEquals(1, scalar.length());
            assertEquals(9.25, ((DoubleArray) scalar.view()).get(0));
        }
        assertEquals(72, Files.size(dir.resolve("scalar")));

        long[] six = {2, 1, 3, 1, 2, 2};
        long[] values = new long[24];
        Arrays.setAll(values, i -> i * 3L);
        MmapArray.create(dir.resolve("six"), LongArray.of(values, six)).close();
        try (MmapArray<LongArray> array = MmapArray.openReadOnly(dir.resolve("six"), DType.INT64)) {
            assertArrayEquals(six, array.shape());
            assertArrayEquals(new long[] {12, 12, 4, 4, 2, 1}, array.strides());
            assertArrayEquals(values, array.view().toArray());
        }

        MmapArray.create(dir.resolve("empty"), FloatArray.zeros(0)).close();
        try (MmapArray<FloatArray> empty = MmapArray.openReadWrite(dir.resolve("empty"), DType.FLOAT32)) {
            assertTrue(empty.isEmpty());
            assertEquals(0, empty.viewMut().length());
            empty.flush();
        }
        assertEquals(64, Files.size(dir.resolve("empty")));
    }

    @Test
    void moreThanSixDimensionsIsAnError() {
        MmapArrayException e = assertThrows(MmapArrayException.class,
                () -> MmapArray.create(dir.resolve("seven"), IntArray.zeros(1, 1, 1, 1, 1, 1, 1)));
        assertEquals(Kind.TOO_MANY_DIMENSIONS, e.kind());
    }

    @Test
    void nonContiguousArraysAreRefused() {
        IntArray matrix = IntArray.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3);
        for (IntArray view : new IntArray[] {matrix.transpose(), matrix.slice(1, 0, 2)}) {
            MmapArrayException e = assertThrows(MmapArrayException.class,
                    () -> MmapArray.create(dir.resolve("t"), view));
            assertEquals(Kind.NON_CONTIGUOUS, e.kind());
            assertTrue(e.getMessage().contains("strides"), e.getMessage());
        }
    }

    @Test
    void contiguousSliceIsWrittenFromItsOffset() throws Exception {
        IntArray matrix = IntArray.of(new int[] {1, 2, 3, 4, 5, 6}, 3, 2);
        try (MmapArray<IntArray> rows = MmapArray.create(dir.resolve("rows"), matrix.slice(0, 1, 3))) {
            assertArrayEquals(new int[] {3, 4, 5, 6}, rows.view().toArray());
        }
    }

    @Test
    void wrongExpectedTypeNamesBothTypes() throws Exception {
        MmapArray.create(dir.resolve("f"), FloatArray.zeros(3)).close();
        MmapArrayException e = assertThrows(MmapArrayException.class,
                () -> MmapArray.openReadOnly(dir.resolve("f"), DType.INT64));
        assertEquals(Kind.DTYPE_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("int64") && e.getMessage().contains("float32"), e.getMessage());
    }

    @Test
    void readOnlyRefusesWrites() throws Exception {
        MmapArray.create(dir.resolve("f"), FloatArray.zeros(3)).close();
        try (MmapArray<FloatArray> array = MmapArray.openReadOnly(dir.resolve("f"), DType.FLOAT32)) {
            MmapArrayException e = assertThrows(MmapArrayException.class, array::viewMut);
            assertEquals(Kind.READ_ONLY, e.kind());
            assertThrows(UnsupportedOperationException.class, () -> array.view().set(0, 1f));
            array.flush();
        }
    }

    @Test
    void readWriteChangesAreVisibleAfterReopen() throws Exception {
        Path file = dir.resolve("rw");
        MmapArray.create(file, DoubleArray.zeros(2, 2)).close();
        try (MmapArray<DoubleArray> array = MmapArray.openReadWrite(file, DType.FLOAT64)) {
            array.viewMut().set(1, 0, 4.5);
            array.viewMut().transpose().set(1, 0, -2);
            assertFalse(array.view().isWritable());
            array.flush();
        }
        try (MmapArray<DoubleArray> array = MmapArray.openReadOnly(file, DType.FLOAT64)) {
            assertArrayEquals(new double[] {0, -2, 4.5, 0}, array.view().toArray());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void copyOnWriteNeverModifiesTheFile(boolean privateMappingAllowed) throws Exception {
        Path file = dir.resolve("cow");
        MmapArray.create(file, IntArray.of(new int[] {1, 2, 3, 4})).close();
        byte[] before = Files.readAllBytes(file);
        try (MmapArray<IntArray> cow = MmapArray.open(file, DType.INT32, MmapArray.Mode.COPY_ON_WRITE,
                        ChunkedMapping.DEFAULT_CHUNK_SIZE, privateMappingAllowed);
                MmapArray<IntArray> other = MmapArray.openReadOnly(file, DType.INT32)) {
            IntArray earlier = cow.view();
            IntArray writable = cow.viewMut();
            writable.set(0, 100);
            writable.set(3, 400);
            cow.flush();
            assertArrayEquals(new int[] {100, 2, 3, 400}, cow.view().toArray());
            assertArrayEquals(new int[] {100, 2, 3, 400}, earlier.toArray());
            assertArrayEquals(new int[] {1, 2, 3, 4}, other.view().toArray());
        }
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void copyOnWriteFallbackWorksOnAReadOnlyFile() throws Exception {
        Path file = dir.resolve("ro");
        MmapArray.create(file, IntArray.of(new int[] {5, 6})).close();
        file.toFile().setWritable(false);
        try (MmapArray<IntArray> cow = MmapArray.openCopyOnWrite(file, DType.INT32)) {
            cow.viewMut().set(1, 60);
            assertArrayEquals(new int[] {5, 60}, cow.view().toArray());
        }
        try (MmapArray<IntArray> reread = MmapArray.openReadOnly(file, DType.INT32)) {
            assertArrayEquals(new int[] {5, 6}, reread.view().toArray());
        }
    }

    @Test
    void toOwnedArrayIsAlwaysACopy() throws Exception {
        Path file = dir.resolve("owned");
        try (MmapArray<LongArray> array = MmapArray.create(file, LongArray.of(new long[] {1, 2}))) {
            LongArray owned = array.toOwnedArray();
            owned.set(0, 10L);
            assertEquals(1L, array.view().get(0));
            array.viewMut().set(1, 20L);
            assertEquals(2L, owned.get(1));
        }
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseThrows() throws Exception {
        MmapArray<FloatArray> array = MmapArray.create(dir.resolve("c"), FloatArray.zeros(4));
        FloatArray view = array.view();
        array.close();
        array.close();
        assertThrows(IllegalStateException.class, array::view);
        assertThrows(IllegalStateException.class, array::shape);
        assertThrows(IllegalStateException.class, () -> view.get(0));
        assertTrue(array.toString().contains("closed"));
    }

    @Test
    void toStringShowsPathModeDtypeAndShape() throws Exception {
        Path file = dir.resolve("s.mmap");
        MmapArray.create(file, IntArray.zeros(2, 5)).close();
        try (MmapArray<?> array = MmapArray.openCopyOnWrite(file)) {
            String text = array.toString();
            assertTrue(text.contains(file.toString()), text);
            assertTrue(text.contains("COPY_ON_WRITE"), text);
            assertTrue(text.contains("int32"), text);
            assertTrue(text.contains("[2, 5]"), text);
        }
    }

    @Test
    void chunkedMappingWithSmallChunks() throws Exception {
        int chunkSize = 16;
        for (int elements : new int[] {8, 12, 13, 1}) {
            Path file = dir.resolve("chunked" + elements);
            long[] values = new long[elements];
            Arrays.setAll(values, i -> i * 1_000_003L);
            MmapArray.create(file, LongArray.of(values), chunkSize).close();
            try (MmapArray<LongArray> array =
                    MmapArray.open(file, DType.INT64, MmapArray.Mode.READ_WRITE, chunkSize, true)) {
                assertArrayEquals(values, array.view().toArray());
                assertArrayEquals(values, array.toOwnedArray().toArray());
                array.viewMut().set(elements - 1, -7L);
                array.flush();
            }
            try (MmapArray<LongArray> array = MmapArray.openReadOnly(file, DType.INT64)) {
                assertEquals(-7L, array.view().get(elements - 1));
            }
        }
    }

    @Test
    void chunkedCopyOnWriteFallbackCopiesEveryChunk() throws Exception {
        Path file = dir.resolve("chunked-cow");
        float[] values = new float[10];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f;
        }
        MmapArray.create(file, FloatArray.of(values)).close();
        try (MmapArray<FloatArray> array =
                MmapArray.open(file, DType.FLOAT32, MmapArray.Mode.COPY_ON_WRITE, 8, false)) {
            FloatArray writable = array.viewMut();
            writable.set(9, -1f);
            values[9] = -1f;
            assertArrayEquals(values, array.view().toArray());
        }
    }

    @Test
    void missingFileIsAnIoError() {
        MmapArrayException e = assertThrows(MmapArrayException.class,
                () -> MmapArray.openReadOnly(dir.resolve("absent")));
        assertEquals(Kind.IO, e.kind());
        assertTrue(e.getMessage().contains("absent"), e.getMessage());
    }
}
