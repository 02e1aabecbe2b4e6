package dev.parq.sink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Compresses Parquet pages with Snappy (raw blocks, as Parquet's SNAPPY codec stores them) between
 * two arrays it keeps: the page is gathered into one, compressed by the native library straight
 * into the other, and handed back as a view of it.
 *
 * <p>parquet-mr's own Snappy compressor streams each page through a new compressor stream, a heap
 * buffer that grows, a direct buffer on each side of the native call and a new array for the result:
 * four copies and four allocations per page, which came to a third of the cost of compressing and
 * to a good part of the young collections of a conversion.
 *
 * <p>The returned bytes are valid until the next call: {@code ColumnChunkPageWriteStore} copies a
 * data page into its row group buffer, and a dictionary page into a copy of its own, before it
 * compresses the next. One compressor serves one file writer, on one thread.
 */
final class SnappyPageCompressor implements BytesInputCompressor {

    /**
     * Arrays up to this size are kept for the next page; a larger one (a page that holds one very
     * large value, say) is let go at the next page that fits under it.
     */
    static final int RETAINED_BYTES = 8 << 20;

    private final Gather page = new Gather();
    private byte[] compressed = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        if (bytes.size() <= RETAINED_BYTES) {
            if (page.bytes().length > RETAINED_BYTES) {
                page.drop();
            }
            if (compressed.length > Snappy.maxCompressedLength(RETAINED_BYTES)) {
                compressed = new byte[0];
            }
        }
        page.reset();
        bytes.writeAllTo(page);
        int bound = Snappy.maxCompressedLength(page.length());
        if (compressed.length < bound) {
            compressed = new byte[Math.max(bound, compressed.length + (compressed.length >> 1))];
        }
        int length = Snappy.compress(page.bytes(), 0, page.length(), compressed, 0);
        return BytesInput.from(compressed, 0, length);
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.SNAPPY;
    }

    /** Bytes held in the two arrays between pages. */
    long retainedBytes() {
        return (long) page.bytes().length + compressed.length;
    }

    @Override
    public void release() {
        page.drop();
        compressed = new byte[0];
    }

    /** A page's bytes, gathered into one array that is reused for the next page. */
    private static final class Gather extends ByteArrayOutputStream {
        Gather() {
            super(0);
        }

        byte[] bytes() {
            return buf;
        }

        int length() {
            return count;
        }

        void drop() {
            buf = new byte[0];
            count = 0;
        }
    }
}
