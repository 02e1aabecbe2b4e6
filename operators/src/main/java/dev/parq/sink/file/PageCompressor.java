package dev.parq.sink.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import com.github.luben.zstd.Zstd;
import dev.parq.sink.Compression;
import io.airlift.compress.lz4.Lz4Compressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Compresses Parquet pages, with any of the sink's codecs, between two arrays it keeps: the page
 * is gathered into one (unless it already lies whole in one array: the page writers lay out a
 * page with a large value so, to spare a copy of it),
 * compressed by the codec's library straight into the other, and handed back as a view of it.
 *
 * <p>parquet-mr's compressors stream each page through a compressor stream and a heap buffer
 * that grows by doubling and never shrinks, and its Snappy one adds a direct buffer on each side
 * of the native call and a new array for the result: after one page that holds a very large
 * value, a writer would keep twice that value's size for the rest of the file. Here the arrays
 * are sized to the page, and let go again (see {@link #RETAINED_BYTES}).
 *
 * <p>The returned bytes are valid until the thread's next call: {@code ColumnChunkPageWriteStore}
 * copies a data page into its row group buffer, and a dictionary page into a copy of its own,
 * before anything else is compressed. The two arrays are the thread's, shared by the compressors of
 * every file it writes (see {@link dev.parq.sink.page.PageScratch}); one compressor serves one file
 * writer.
 */
final class PageCompressor implements BytesInputCompressor {

    /**
     * Arrays up to this size are kept for the next page; a larger one (a page that holds one very
     * large value, say) is let go at the next page that fits under it.
     */
    static final int RETAINED_BYTES = 8 << 20;

    /** The class of the {@link BytesInput} that views one array, whose bytes need no gathering. */
    private static final Class<?> ONE_ARRAY = BytesInput.from(new byte[0], 0, 0).getClass();

    /** Parquet's default ZSTD level, as parquet-mr's {@code parquet.compression.codec.zstd.level}. */
    private static final int ZSTD_LEVEL = 3;

    private final CompressionCodecName codec;
    /** LZ4 keeps its hash table between pages; GZIP its deflater. Null for the other codecs. */
    private final Lz4Compressor lz4;
    private Deflater deflater;
    private final CRC32 crc;

    PageCompressor(Compression compression) {
        this.codec = compression.codec();
        this.lz4 = compression == Compression.LZ4_RAW ? new Lz4Compressor() : null;
        this.crc = compression == Compression.GZIP ? new CRC32() : null;
    }

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        if (codec == CompressionCodecName.UNCOMPRESSED) {
            return bytes;
        }
        long size = bytes.size();
        if (size > Integer.MAX_VALUE - 64) {
            throw new IOException("a page of " + size + " bytes is too large to compress");
        }
        Buffers buffers = Buffers.OF_THREAD.get();
        Gather page = buffers.page;
        if (size <= RETAINED_BYTES) {
            if (page.bytes().length > RETAINED_BYTES) {
                page.drop();
            }
            if (buffers.compressed.length > bound(RETAINED_BYTES)) {
                buffers.compressed = new byte[0];
            }
        }
        byte[] input;
        int offset;
        int length = (int) size;
        if (bytes.getClass() == ONE_ARRAY) {
            ByteBuffer whole = bytes.toByteBuffer();
            input = whole.array();
            offset = whole.arrayOffset() + whole.position();
        } else {
            page.reset(length);
            bytes.writeAllTo(page);
            input = page.bytes();
            offset = 0;
        }
        int bound = bound(length);
        byte[] compressed = buffers.compressed;
        if (compressed.length < bound) {
            compressed = new byte[bound <= RETAINED_BYTES ? Math.max(bound, compressed.length + (compressed.length >> 1)) : bound];
            buffers.compressed = compressed;
        }
        return BytesInput.from(compressed, 0, compress(input, offset, length, compressed));
    }

    /** The most bytes {@code length} bytes compress to. */
    private int bound(int length) {
        switch (codec) {
            case SNAPPY:
                return Snappy.maxCompressedLength(length);
            case ZSTD:
                return Math.toIntExact(Zstd.compressBound(length));
            case LZ4_RAW:
                return lz4.maxCompressedLength(length);
            case GZIP:
                // Deflate's worst case (stored blocks of 16 KiB, 5 bytes each) and gzip's header and trailer.
                return length + 5 * (length / 16_383 + 1) + 64;
            default:
                throw new IllegalStateException("no compressor for " + codec);
        }
    }

    private int compress(byte[] input, int offset, int length, byte[] compressed) throws IOException {
        switch (codec) {
            case SNAPPY:
                return Snappy.compress(input, offset, length, compressed, 0);
            case ZSTD:
                long written = Zstd.compressByteArray(compressed, 0, compressed.length, input, offset, length, ZSTD_LEVEL);
                if (Zstd.isError(written)) {
                    throw new IOException("zstd could not compress a page: " + Zstd.getErrorName(written));
                }
                return (int) written;
            case LZ4_RAW:
                return lz4.compress(input, offset, length, compressed, 0, compressed.length);
            case GZIP:
                return gzip(input, offset, length, compressed);
            default:
                throw new IllegalStateException("no compressor for " + codec);
        }
    }

    /** One gzip member (RFC 1952): a 10-byte header, the deflated bytes, their CRC-32 and length. */
    private int gzip(byte[] input, int offset, int length, byte[] out) throws IOException {
        out[0] = 0x1f;
        out[1] = (byte) 0x8b;
        out[2] = Deflater.DEFLATED;
        for (int i = 3; i < 9; i++) {
            out[i] = 0;
        }
        out[9] = (byte) 0xff;
        if (deflater == null) {
            deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        }
        deflater.reset();
        deflater.setInput(input, offset, length);
        deflater.finish();
        int at = 10;
        while (!deflater.finished()) {
            if (at >= out.length - 8) {
                throw new IOException("gzip output of a " + length + "-byte page exceeds its bound");
            }
            at += deflater.deflate(out, at, out.length - 8 - at);
        }
        crc.reset();
        crc.update(input, offset, length);
        putIntLe(out, at, (int) crc.getValue());
        putIntLe(out, at + 4, length);
        return at + 8;
    }

    private static void putIntLe(byte[] out, int at, int value) {
        out[at] = (byte) value;
        out[at + 1] = (byte) (value >>> 8);
        out[at + 2] = (byte) (value >>> 16);
        out[at + 3] = (byte) (value >>> 24);
    }

    @Override
    public CompressionCodecName getCodecName() {
        return codec;
    }

    /** Bytes the calling thread holds in the two arrays between pages. */
    static long retainedBytes() {
        Buffers buffers = Buffers.OF_THREAD.get();
        return (long) buffers.page.bytes().length + buffers.compressed.length;
    }

    @Override
    public void release() {
        if (deflater != null) {
            deflater.end();
            deflater = null;
        }
    }

    /** The arrays of one thread. */
    private static final class Buffers {
        static final ThreadLocal<Buffers> OF_THREAD = ThreadLocal.withInitial(Buffers::new);

        final Gather page = new Gather();
        byte[] compressed = new byte[0];
    }

    /** A page's bytes, gathered into one array that is reused for the next page. */
    private static final class Gather extends ByteArrayOutputStream {
        Gather() {
            super(0);
        }

        byte[] bytes() {
            return buf;
        }

        /** Empties the array, making room for {@code length} bytes at once instead of by doubling. */
        void reset(int length) {
            count = 0;
            if (buf.length < length) {
                buf = new byte[length <= RETAINED_BYTES ? Math.max(length, buf.length + (buf.length >> 1)) : length];
            }
        }

        void drop() {
            buf = new byte[0];
            count = 0;
        }
    }
}
