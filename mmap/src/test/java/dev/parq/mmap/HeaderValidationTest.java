package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parq.mmap.MmapArrayException.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Corrupted and truncated files must be refused before anything is mapped. */
class HeaderValidationTest {

    @TempDir
    Path dir;

    private Path file;
    private byte[] valid;

    @BeforeEach
    void writeValidFile() throws Exception {
        file = dir.resolve("a.mmap");
        MmapArray.create(file, IntArray.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3)).close();
        valid = Files.readAllBytes(file);
    }

    private MmapArrayException openCorrupted(byte[] bytes) throws Exception {
        Files.write(file, bytes);
        return assertThrows(MmapArrayException.class, () -> MmapArray.openReadOnly(file));
    }

    private byte[] withLong(int at, long value) {
        byte[] bytes = valid.clone();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
        return bytes;
    }

    private byte[] withByte(int at, int value) {
        byte[] bytes = valid.clone();
        bytes[at] = (byte) value;
        return bytes;
    }

    @Test
    void badMagic() throws Exception {
        MmapArrayException e = openCorrupted(withByte(0, 'X'));
        assertEquals(Kind.INVALID_MAGIC, e.kind());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertEquals(Kind.INVALID_MAGIC, openCorrupted(new byte[0]).kind());
    }

    @Test
    void badVersion() throws Exception {
        MmapArrayException e = openCorrupted(withByte(4, 2));
        assertEquals(Kind.VERSION_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("byte 4"), e.getMessage());
    }

    @Test
    void unknownDtype() throws Exception {
        assertEquals(Kind.DTYPE_MISMATCH, openCorrupted(withByte(5, 9)).kind());
    }

    @Test
    void tooManyDimensions() throws Exception {
        assertEquals(Kind.TOO_MANY_DIMENSIONS, openCorrupted(withByte(6, 7)).kind());
    }

    @Test
    void totalThatIsNotTheProductOfTheShape() throws Exception {
        assertEquals(Kind.SIZE_MISMATCH, openCorrupted(withLong(8, 7)).kind());
    }

    @Test
    void shapeWhoseProductOverflows() throws Exception {
        byte[] bytes = withLong(16, 1L << 40);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(24, 1L << 40);
        MmapArrayException e = openCorrupted(bytes);
        assertEquals(Kind.SIZE_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("overflows"), e.getMessage());
    }

    @Test
    void nonZeroPadding() throws Exception {
        MmapArrayException e = openCorrupted(withByte(40, 1));
        assertEquals(Kind.INVALID_HEADER, e.kind());
        assertTrue(e.getMessage().contains("byte 40"), e.getMessage());
    }

    @Test
    void truncatedData() throws Exception {
        MmapArrayException e = openCorrupted(Arrays.copyOf(valid, valid.length - 1));
        assertEquals(Kind.SIZE_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void truncatedHeader() throws Exception {
        assertEquals(Kind.SIZE_MISMATCH, openCorrupted(Arrays.copyOf(valid, 20)).kind());
    }

    @Test
    void trailingBytes() throws Exception {
        assertEquals(Kind.SIZE_MISMATCH, openCorrupted(Arrays.copyOf(valid, valid.length + 4)).kind());
    }

    @Test
    void shapeGrownWithoutData() throws Exception {
        byte[] bytes = withLong(8, 12);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(16, 4);
        assertEquals(Kind.SIZE_MISMATCH, openCorrupted(bytes).kind());
    }
}
