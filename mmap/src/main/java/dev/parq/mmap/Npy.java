package dev.parq.mmap;

import static dev.parq.mmap.MmapArrayException.Kind.DTYPE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.INVALID_HEADER;
import static dev.parq.mmap.MmapArrayException.Kind.INVALID_MAGIC;
import static dev.parq.mmap.MmapArrayException.Kind.IO;
import static dev.parq.mmap.MmapArrayException.Kind.NON_CONTIGUOUS;
import static dev.parq.mmap.MmapArrayException.Kind.SIZE_MISMATCH;
import static dev.parq.mmap.MmapArrayException.Kind.TOO_MANY_DIMENSIONS;
import static dev.parq.mmap.MmapArrayException.Kind.VERSION_MISMATCH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Conversion between numpy's {@code .npy} files and mmap array files. Both hold the elements
 * as one block after a header, so a conversion rewrites the header and copies the block with
 * {@link FileChannel#transferTo}, without interpreting elements.
 *
 * <p>Read: npy format versions 1.0 and 2.0, C order, little-endian {@code <f4 <f8 <i4 <i8}.
 * Fortran order, big-endian, other element types and other versions are refused with a
 * {@link MmapArrayException} naming the file and what it holds. Written: version 1.0.
 */
public final class Npy {

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** numpy aligns the element block to 64 bytes so that it can be mapped. */
    private static final int ALIGNMENT = 64;
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern ANY_DESCR = Pattern.compile("'descr'\\s*:\\s*([^,]*)");
    private static final Pattern FORTRAN_ORDER = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private Npy() {}

    /** What an {@code .npy} header says: element type, shape, and where the elements start. */
    public static final class NpyHeader {
        private final DType<?> dtype;
        private final long[] shape;
        private final long dataOffset;

        NpyHeader(DType<?> dtype, long[] shape, long dataOffset) {
            this.dtype = dtype;
            this.shape = shape;
            this.dataOffset = dataOffset;
        }

        public DType<?> dtype() {
            return dtype;
        }

        public long[] shape() {
            return shape.clone();
        }

        public long dataOffset() {
            return dataOffset;
        }
    }

    /** Reads and validates the header of an {@code .npy} file, including the file's size. */
    public static NpyHeader readHeader(Path npy) throws MmapArrayException {
        try (FileChannel channel = FileChannel.open(npy, StandardOpenOption.READ)) {
            return readHeader(channel, npy);
        } catch (IOException e) {
            throw new MmapArrayException(IO, npy, "cannot read: " + e, e);
        }
    }

    /** Converts {@code npy} into an mmap array file at {@code mmap}, replacing any file there. */
    public static void toMmap(Path npy, Path mmap) throws MmapArrayException {
        try (FileChannel in = FileChannel.open(npy, StandardOpenOption.READ)) {
            NpyHeader header = readHeader(in, npy);
            if (header.shape.length > Header.MAX_DIMENSIONS) {
                throw new MmapArrayException(TOO_MANY_DIMENSIONS, npy, "the array has "
                        + header.shape.length + " dimensions, the mmap format holds at most "
                        + Header.MAX_DIMENSIONS);
            }
            Header mmapHeader = new Header(header.dtype, header.shape);
            try (FileChannel out = openForWriting(mmap)) {
                writeFully(out, mmapHeader.encode(), 0);
                copy(in, header.dataOffset, out, Header.SIZE, mmapHeader.dataBytes());
            } catch (IOException e) {
                throw new MmapArrayException(IO, mmap, "cannot write: " + e, e);
            }
        } catch (IOException e) {
            throw new MmapArrayException(IO, npy, "cannot read: " + e, e);
        }
    }

    /** Converts the mmap array file {@code mmap} into {@code npy} (format 1.0), replacing any file there. */
    public static void fromMmap(Path mmap, Path npy) throws MmapArrayException {
        try (FileChannel in = FileChannel.open(mmap, StandardOpenOption.READ)) {
            Header header = Header.read(in, mmap);
            ByteBuffer npyHeader = encodeHeader(header.dtype, header.shape);
            try (FileChannel out = openForWriting(npy)) {
                writeFully(out, npyHeader, 0);
                copy(in, Header.SIZE, out, npyHeader.capacity(), header.dataBytes());
            } catch (IOException e) {
                throw new MmapArrayException(IO, npy, "cannot write: " + e, e);
            }
        } catch (IOException e) {
            throw new MmapArrayException(IO, mmap, "cannot read: " + e, e);
        }
    }

    /** A version 1.0 header whose length, magic included, is a multiple of 64 bytes. */
    static ByteBuffer encodeHeader(DType<?> dtype, long[] shape) {
        StringBuilder tuple = new StringBuilder("(");
        for (int axis = 0; axis < shape.length; axis++) {
            tuple.append(axis == 0 ? "" : ", ").append(shape[axis]);
        }
        tuple.append(shape.length == 1 ? ",)" : ")");
        String dict = "{'descr': '" + dtype.npyDescr() + "', 'fortran_order': False, 'shape': "
                + tuple + ", }";
        int prefix = MAGIC.length + 2 + 2;
        int padded = ((prefix + dict.length() + 1 + ALIGNMENT - 1) / ALIGNMENT) * ALIGNMENT;
        String text = dict + " ".repeat(padded - prefix - dict.length() - 1) + "\n";
        ByteBuffer bytes = ByteBuffer.allocate(padded).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put(MAGIC).put((byte) 1).put((byte) 0).putShort((short) text.length());
        bytes.put(text.getBytes(StandardCharsets.US_ASCII));
        return bytes.flip();
    }

    private static NpyHeader readHeader(FileChannel channel, Path path)
            throws IOException, MmapArrayException {
        ByteBuffer prefix = ByteBuffer.allocate(MAGIC.length + 2 + 4).order(ByteOrder.LITTLE_ENDIAN);
        readFully(channel, prefix, 0);
        prefix.flip();
        if (prefix.remaining() < MAGIC.length + 2
                || !Arrays.equals(Arrays.copyOf(prefix.array(), MAGIC.length), MAGIC)) {
            throw new MmapArrayException(INVALID_MAGIC, path,
                    "does not start with \"\\x93NUMPY\"; not an .npy file");
        }
        int major = Byte.toUnsignedInt(prefix.get(6));
        int minor = Byte.toUnsignedInt(prefix.get(7));
        long headerLength;
        int lengthFieldEnd;
        if (major == 1 && minor == 0 && prefix.remaining() >= 10) {
            headerLength = Short.toUnsignedInt(prefix.getShort(8));
            lengthFieldEnd = 10;
        } else if (major == 2 && minor == 0 && prefix.remaining() >= 12) {
            headerLength = Integer.toUnsignedLong(prefix.getInt(8));
            lengthFieldEnd = 12;
        } else {
            throw new MmapArrayException(VERSION_MISMATCH, path, "npy format version " + major + "."
                    + minor + " (or a truncated prefix); versions 1.0 and 2.0 are read");
        }
        long fileSize = channel.size();
        if (lengthFieldEnd + headerLength > fileSize || headerLength > Integer.MAX_VALUE) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "the header claims " + headerLength
                    + " bytes but the file is " + fileSize + " bytes");
        }
        ByteBuffer text = ByteBuffer.allocate((int) headerLength);
        readFully(channel, text, lengthFieldEnd);
        String dict = new String(text.array(), StandardCharsets.ISO_8859_1);

        Matcher fortran = FORTRAN_ORDER.matcher(dict);
        Matcher shapeMatch = SHAPE.matcher(dict);
        if (!fortran.find() || !shapeMatch.find()) {
            throw new MmapArrayException(INVALID_HEADER, path,
                    "header is not an npy dict with 'fortran_order' and 'shape': " + dict.trim());
        }
        Matcher descrMatch = DESCR.matcher(dict);
        if (!descrMatch.find()) {
            Matcher any = ANY_DESCR.matcher(dict);
            throw new MmapArrayException(DTYPE_MISMATCH, path, "unsupported dtype "
                    + (any.find() ? any.group(1).trim() : "(no 'descr')")
                    + "; only <f4, <f8, <i4 and <i8 are supported");
        }
        String descr = descrMatch.group(1);
        DType<?> dtype = DType.fromNpyDescr(descr);
        if (dtype == null) {
            boolean bigEndian = descr.startsWith(">");
            throw new MmapArrayException(DTYPE_MISMATCH, path, "dtype '" + descr + "'"
                    + (bigEndian ? " is big-endian" : " is not supported")
                    + "; only little-endian <f4, <f8, <i4 and <i8 are supported");
        }
        if (fortran.group(1).equals("True")) {
            throw new MmapArrayException(NON_CONTIGUOUS, path,
                    "the array is in Fortran order; only C order is supported (np.ascontiguousarray)");
        }
        long[] shape = parseShape(shapeMatch.group(1), path);
        long dataOffset = lengthFieldEnd + headerLength;
        long expected;
        try {
            expected = Math.addExact(dataOffset,
                    Math.multiplyExact(NdArray.checkedLength(shape), (long) dtype.byteSize()));
        } catch (ArithmeticException e) {
            throw new MmapArrayException(SIZE_MISMATCH, path,
                    "shape " + Arrays.toString(shape) + " overflows", e);
        }
        if (expected != fileSize) {
            throw new MmapArrayException(SIZE_MISMATCH, path, "the file is " + fileSize
                    + " bytes, but a " + dtype + " array of shape " + Arrays.toString(shape)
                    + " after a " + dataOffset + "-byte header needs " + expected);
        }
        return new NpyHeader(dtype, shape, dataOffset);
    }

    private static long[] parseShape(String tuple, Path path) throws MmapArrayException {
        List<Long> extents = new ArrayList<>();
        for (String part : tuple.split(",")) {
            String extent = part.trim().replaceFirst("L$", "");
            if (extent.isEmpty()) {
                continue;
            }
            try {
                long value = Long.parseLong(extent);
                if (value < 0) {
                    throw new NumberFormatException("negative");
                }
                extents.add(value);
            } catch (NumberFormatException e) {
                throw new MmapArrayException(INVALID_HEADER, path,
                        "shape (" + tuple + ") is not a tuple of non-negative integers", e);
            }
        }
        return extents.stream().mapToLong(Long::longValue).toArray();
    }

    private static FileChannel openForWriting(Path path) throws IOException {
        return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
    }

    private static void copy(FileChannel in, long from, FileChannel out, long to, long length)
            throws IOException {
        out.position(to);
        long done = 0;
        while (done < length) {
            long moved = in.transferTo(from + done, length - done, out);
            if (moved <= 0) {
                throw new IOException("source ended after " + done + " of " + length + " bytes");
            }
            done += moved;
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long position)
            throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                return;
            }
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
            throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer, position + buffer.position());
        }
    }
}
