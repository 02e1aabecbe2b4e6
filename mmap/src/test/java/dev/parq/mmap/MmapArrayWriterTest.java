package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parq.mmap.MmapArrayException.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MmapArrayWriterTest {

    @TempDir
    Path dir;

    @Test
    void appendsRowsFromBuffersAndFilesThenWritesTheFinalShape() throws Exception {
        Path segment = dir.resolve("segment");
        Files.write(segment, doubles(3, 4, 5, 6).array());
        Path file = dir.resolve("a.mmap");
        try (MmapArrayWriter writer = MmapArrayWriter.create(file, DType.FLOAT64, 2)) {
            writer.append(doubles(1, 2));
            writer.appendFile(segment);
            writer.append(doubles(Double.NaN, 8));
            assertEquals(4, writer.rows());
        }
        try (MmapArray<DoubleArray> array = MmapArray.openReadOnly(file, DType.FLOAT64)) {
            assertArrayEquals(new long[] {4, 2}, array.shape());
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, Double.NaN, 8}, array.view().toArray());
        }
    }

    @Test
    void anEmptyArrayIsValid() throws Exception {
        Path file = dir.resolve("empty.mmap");
        MmapArrayWriter.create(file, DType.FLOAT32, 3).close();
        try (MmapArray<FloatArray> array = MmapArray.openReadOnly(file, DType.FLOAT32)) {
            assertArrayEquals(new long[] {0, 3}, array.shape());
            assertEquals(64, Files.size(file));
        }
    }

    @Test
    void refusesPartialRows() throws Exception {
        try (MmapArrayWriter writer = MmapArrayWriter.create(dir.resolve("a.mmap"), DType.FLOAT64, 2)) {
            MmapArrayException e = assertThrows(MmapArrayException.class, () -> writer.append(doubles(1, 2, 3)));
            assertEquals(Kind.SIZE_MISMATCH, e.kind());
            assertEquals(0, writer.rows());
        }
    }

    private static ByteBuffer doubles(double... values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (double value : values) {
            bytes.putDouble(value);
        }
        return bytes.flip();
    }
}
