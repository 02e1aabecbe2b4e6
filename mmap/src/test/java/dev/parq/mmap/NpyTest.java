package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parq.mmap.MmapArrayException.Kind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyTest {

    @TempDir
    Path dir;

    @Test
    void headerIsAlignedAndDescribesTheArray() {
        ByteBuffer header = Npy.encodeHeader(DType.FLOAT64, new long[] {3});
        assertEquals(0, header.remaining() % 64);
        String text = StandardCharsets.US_ASCII.decode(header.slice(10, header.remaining() - 10)).toString();
        assertTrue(text.startsWith("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }"), text);
        assertTrue(text.endsWith("\n"));
    }

    @Test
    void roundTripsThroughNpy() throws Exception {
        Path mmap = dir.resolve("a.mmap");
        Path npy = dir.resolve("a.npy");
        Path back = dir.resolve("b.mmap");
        int[] values = {1, -2, 3, -4, 5, -6};
        MmapArray.create(mmap, IntArray.of(values, 3, 1, 2)).close();
        Npy.fromMmap(mmap, npy);
        Npy.NpyHeader header = Npy.readHeader(npy);
        assertEquals(DType.INT32, header.dtype());
        assertArrayEquals(new long[] {3, 1, 2}, header.shape());
        assertEquals(0, header.dataOffset() % 64);
        Npy.toMmap(npy, back);
        assertArrayEquals(Files.readAllBytes(mmap), Files.readAllBytes(back));
    }

    @Test
    void zeroDimensionalAndEmpty() throws Exception {
        for (long[] shape : new long[][] {{}, {0}, {2, 0}}) {
            Path mmap = dir.resolve("a.mmap");
            Path npy = dir.resolve("a.npy");
            MmapArray.create(mmap, LongArray.zeros(shape)).close();
            Npy.fromMmap(mmap, npy);
            assertArrayEquals(shape, Npy.readHeader(npy).shape());
        }
    }

    private Path npyWith(String dict, int major) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        byte[] text = (dict + "\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer length = ByteBuffer.allocate(major == 1 ? 2 : 4).order(ByteOrder.LITTLE_ENDIAN);
        if (major == 1) {
            length.putShort((short) text.length);
        } else {
            length.putInt(text.length);
        }
        bytes.write(length.array());
        bytes.write(text);
        bytes.write(new byte[8]);
        Path file = dir.resolve("in.npy");
        Files.write(file, bytes.toByteArray());
        return file;
    }

    private MmapArrayException refused(Path npy) {
        MmapArrayException e = assertThrows(MmapArrayException.class,
                () -> Npy.toMmap(npy, dir.resolve("out.mmap")));
        assertTrue(e.getMessage().contains(npy.toString()), e.getMessage());
        return e;
    }

    @Test
    void readsVersion2() throws Exception {
        Path npy = npyWith("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", 2);
        Npy.toMmap(npy, dir.resolve("out.mmap"));
        try (MmapArray<LongArray> array = MmapArray.openReadOnly(dir.resolve("out.mmap"), DType.INT64)) {
            assertEquals(0L, array.view().get(0));
        }
    }

    @Test
    void refusesFortranOrder() throws Exception {
        MmapArrayException e = refused(npyWith("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 1));
        assertEquals(Kind.NON_CONTIGUOUS, e.kind());
        assertTrue(e.getMessage().contains("Fortran"), e.getMessage());
    }

    @Test
    void refusesBigEndian() throws Exception {
        MmapArrayException e = refused(npyWith("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", 1));
        assertEquals(Kind.DTYPE_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("big-endian") && e.getMessage().contains(">f8"), e.getMessage());
    }

    @Test
    void refusesOtherDtypes() throws Exception {
        MmapArrayException e = refused(npyWith("{'descr': '<i2', 'fortran_order': False, 'shape': (4,), }", 1));
        assertEquals(Kind.DTYPE_MISMATCH, e.kind());
        assertTrue(e.getMessage().contains("<i2"), e.getMessage());
        e = refused(npyWith("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 1));
        assertEquals(Kind.DTYPE_MISMATCH, e.kind());
    }

    @Test
    void refusesOtherVersionsAndWrongSizes() throws Exception {
        assertEquals(Kind.VERSION_MISMATCH,
                refused(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 3)).kind());
        assertEquals(Kind.SIZE_MISMATCH,
                refused(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 1)).kind());
        Path notNpy = dir.resolve("plain.npy");
        Files.writeString(notNpy, "hello");
        assertEquals(Kind.INVALID_MAGIC, refused(notNpy).kind());
    }

    @Test
    void refusesMoreThanSixDimensions() throws Exception {
        Path npy = npyWith("{'descr': '<i4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 2), }", 1);
        assertEquals(Kind.TOO_MANY_DIMENSIONS, refused(npy).kind());
    }
}
