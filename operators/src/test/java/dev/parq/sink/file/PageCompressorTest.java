package dev.parq.sink.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Decompressor;

import dev.parq.sink.Compression;
import org.apache.parquet.bytes.BytesInput;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xerial.snappy.Snappy;

class PageCompressorTest {

    /**
     * Pages of every kind in a row, on the same compressor, with each codec: its arrays grow for a
     * large page and are reused for the smaller ones after it, and each result is the page as the
     * codec's own decompressor reads it back (a raw block; for GZIP a gzip member).
     */
    @ParameterizedTest
    @EnumSource(Compression.class)
    void eachPageComesBackAsItsOwnBlock(Compression codec) throws Exception {
        PageCompressor compressor = new PageCompressor(codec);
        Random random = new Random(7);
        byte[] text = "level=INFO service=checkout message=\"request completed\"\n".repeat(20_000)
                .getBytes(StandardCharsets.UTF_8);
        byte[] noise = new byte[300_000];
        random.nextBytes(noise);
        byte[] small = Arrays.copyOf(noise, 17);
        byte[][] pages = {small, text, noise, small, new byte[0], text};
        for (byte[] page : pages) {
            byte[] compressed = compressor.compress(BytesInput.from(page)).toByteArray();
            assertArrayEquals(page, decompress(codec, compressed, page.length), "page of " + page.length + " bytes");
            if (page == text && codec != Compression.NONE) {
                assertTrue(compressed.length < page.length / 10, "text compresses: " + compressed.length);
            }
        }
        // A page made of several parts (levels, then values), as the column writers hand them over.
        BytesInput parts = BytesInput.concat(BytesInput.from(small), BytesInput.from(text, 5, 1000), BytesInput.empty());
        byte[] expected = parts.toByteArray();
        assertArrayEquals(expected, decompress(codec, compressor.compress(parts).toByteArray(), expected.length));
        // A page that is a view into the middle of an array is compressed from there.
        assertArrayEquals(Arrays.copyOfRange(text, 3, 5003),
                decompress(codec, compressor.compress(BytesInput.from(text, 3, 5000)).toByteArray(), 5000));
        compressor.release();
        assertArrayEquals(small, decompress(codec, compressor.compress(BytesInput.from(small)).toByteArray(), 17));
    }

    private static byte[] decompress(Compression codec, byte[] compressed, int length) throws IOException {
        switch (codec) {
            case SNAPPY:
                return Snappy.uncompress(compressed);
            case ZSTD:
                return Zstd.decompress(compressed, length);
            case LZ4_RAW:
                byte[] out = new byte[length];
                int read = new Lz4Decompressor().decompress(compressed, 0, compressed.length, out, 0, length);
                assertEquals(length, read);
                return out;
            case GZIP:
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
                    return in.readAllBytes();
                }
            default:
                return compressed;
        }
    }

    /** A page far larger than usual does not pin its arrays: the next ordinary page lets them go. */
    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aHugePageIsNotKeptForTheNextOne(Compression codec) throws Exception {
        PageCompressor compressor = new PageCompressor(codec);
        byte[] ordinary = "a page of ordinary size ".repeat(40_000).getBytes(StandardCharsets.US_ASCII);
        byte[] huge = new byte[3 * PageCompressor.RETAINED_BYTES];
        new Random(3).nextBytes(huge);
        compressor.compress(BytesInput.from(ordinary));
        long ordinaryHeld = PageCompressor.retainedBytes();
        // Gathered from parts, the page is copied once into the compressor's input array.
        BytesInput parts = BytesInput.concat(BytesInput.from(huge, 0, 10), BytesInput.from(huge, 10, huge.length - 10));
        assertArrayEquals(huge, decompress(codec, compressor.compress(parts).toByteArray(), huge.length));
        assertTrue(PageCompressor.retainedBytes() > 2L * huge.length, PageCompressor.retainedBytes() + " bytes held");
        assertArrayEquals(ordinary, decompress(codec, compressor.compress(BytesInput.from(ordinary)).toByteArray(),
                ordinary.length));
        assertTrue(PageCompressor.retainedBytes() <= 2 * ordinaryHeld + 2L * ordinary.length,
                PageCompressor.retainedBytes() + " bytes held after an ordinary page");
        // In one array already, it is compressed from there: only the output array grows.
        compressor.compress(BytesInput.from(huge));
        assertTrue(PageCompressor.retainedBytes() < 2L * huge.length, PageCompressor.retainedBytes() + " bytes held");
    }
}
