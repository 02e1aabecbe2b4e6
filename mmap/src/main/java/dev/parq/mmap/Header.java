package dev.parq.mmap;

import static dev.parq.mmap.MmapArrayException.Kind.DTYPE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.INVALID_HEADER;
import static dev.parq.mmap.MmapArrayException.Kind.INVALID_MAGIC;
import static dev.parq.mmap.MmapArrayException.Kind.SIZE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.TOO_MANY_DIMENSIONS;
import static dev.parq.mmap.MmapArrayException.Kind.VERSION_MISMATCH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The 64-byte header of an mmap array file, little-endian: magic {@code MMAP} (bytes 0..4),
 * version 1 (byte 4), dtype id (byte 5), ndim as u16 (bytes 6..8), element count as u64
 * (bytes 8..16), one u64 extent per dimension from byte 16, zero padding to byte 64. The
 * elements follow in C order.
 */
final class Header {

    static final int SIZE = 64;
    static final int VERSION = 1;
    static final int MAX_DIMENSIONS = 6;
    private static final byte[] MAGIC = "MMAP".getBytes(StandardCharsets.US_ASCII);
    private static final int SHAPE_OFFSET = 16;

    final DType<?> dtype;
    final long[] shape;
    final long length;

    Header(DType<?> dtype, long[] shape) {
        this.dtype = dtype;
        this.shape = shape;
        this.length = NdArray.checkedLength(shape);
    }

    /** Bytes of element data after the header. */
    long dataBytes() {
        return length * dtype.byteSize();
    }

    /** The header of an array about to be written, refusing shapes the format cannot hold. */
    static Header forArray(Path path, NdArray array) throws MmapArrayException {
        if (array.ndim() > MAX_DIMENSIONS) {
            throw new MmapArrayException(TOO_MANY_DIMENSIONS, path, "the array has " + array.ndim()
                    + " dimensions, the format holds at most " + MAX_DIMENSIONS);
        }
        return new Header(array.dtype(), array.shape());
    }

    ByteBuffer encode() {
        ByteBuffer bytes = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put(MAGIC);
        bytes.put((byte) VERSION);
        bytes.put((byte) dtype.id());
        bytes.putShort((short) shape.length);
        bytes.putLong(length);
        for (long extent : shape) {
            bytes.putLong(extent);
        }
        return bytes.clear();
    }

    /**
     * Reads and validates the header of {@code channel}, including that the file is exactly as
     * long as the header says, so that no mapped access can fall beyond the end of the file.
     */
    static Header read(FileChannel channel, Path path) throws MmapArrayException {
        long fileSize;
        ByteBuffer bytes = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        try {
            fileSize = channel.size();
            int read;
            do {
                read = channel.read(bytes, bytes.position());
            } while (read >= 0 && bytes.hasRemaining());
        } catch (IOException e) {
            throw new MmapArrayException(MmapArrayException.Kind.IO, path,
                    "cannot read the header: " + e.getMessage(), e);
        }
        bytes.flip();
        if (bytes.remaining() < MAGIC.length || !startsWithMagic(bytes)) {
            throw new MmapArrayException(INVALID_MAGIC, path,
                    "bytes 0..4 are not \"MMAP\" (found " + describe(bytes) + "); not an mmap array file");
        }
        if (bytes.remaining() < SIZE) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "the file is " + fileSize
                    + " bytes, shorter than the " + SIZE + "-byte header");
        }
        int version = Byte.toUnsignedInt(bytes.get(4));
        if (version != VERSION) {
            throw new MmapArrayException(VERSION_MISMATCH, path,
                    "byte 4: format version " + version + ", expected " + VERSION);
        }
        int dtypeId = Byte.toUnsignedInt(bytes.get(5));
        DType<?> dtype = DType.fromId(dtypeId);
        if (dtype == null) {
            throw new MmapArrayException(DTYPE_MISMATCH, path, "byte 5: unknown dtype id " + dtypeId
                    + ", expected 1 (float32), 2 (float64), 3 (int32) or 4 (int64)");
        }
        int ndim = Short.toUnsignedInt(bytes.getShort(6));
        if (ndim > MAX_DIMENSIONS) {
            throw new MmapArrayException(TOO_MANY_DIMENSIONS, path,
                    "bytes 6..8: ndim " + ndim + ", the format holds at most " + MAX_DIMENSIONS);
        }
        long total = bytes.getLong(8);
        long[] shape = new long[ndim];
        long product = 1;
        for (int axis = 0; axis < ndim; axis++) {
            int at = SHAPE_OFFSET + axis * Long.BYTES;
            shape[axis] = bytes.getLong(at);
            if (shape[axis] < 0) {
                throw new MmapArrayException(SIZE_MISMATCH, path, "bytes " + at + ".." + (at + 8)
                        + ": extent " + Long.toUnsignedString(shape[axis]) + " is too large");
            }
            product = multiplyOrMinusOne(product, shape[axis]);
        }
        if (product < 0 || product != total) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "bytes 8..16: element count "
                    + Long.toUnsignedString(total) + " is not the product of shape "
                    + Arrays.toString(shape) + (product < 0 ? " (which overflows)" : " = " + product));
        }
        for (int at = SHAPE_OFFSET + ndim * Long.BYTES; at < SIZE; at++) {
            if (bytes.get(at) != 0) {
                throw new MmapArrayException(INVALID_HEADER, path,
                        "byte " + at + " is " + Byte.toUnsignedInt(bytes.get(at))
                                + ", the header padding after the shape must be zero");
            }
        }
        long dataBytes = multiplyOrMinusOne(total, dtype.byteSize());
        long expectedSize = dataBytes < 0 ? -1 : dataBytes + SIZE;
        if (expectedSize < 0 || fileSize != expectedSize) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "the file is " + fileSize
                    + " bytes, but a " + dtype + " array of shape " + Arrays.toString(shape) + " needs "
                    + (expectedSize < 0 ? "more than 2^63" : String.valueOf(expectedSize))
                    + " (" + SIZE + "-byte header + " + total + " x " + dtype.byteSize() + ")"
                    + (fileSize < expectedSize ? "; the file is truncated" : ""));
        }
        return new Header(dtype, shape);
    }

    private static long multiplyOrMinusOne(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    private static boolean startsWithMagic(ByteBuffer bytes) {
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes.get(i) != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static String describe(ByteBuffer bytes) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(MAGIC.length, bytes.remaining()); i++) {
            hex.append(String.format("%02x", bytes.get(i)));
        }
        return hex.length() == 0 ? "an empty file" : "0x" + hex;
    }
}
