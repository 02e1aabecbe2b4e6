package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import dev.parq.schema.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

class SnappyPageCompressorTest {

    @TempDir
    Path dir;

    /**
     * Pages of every kind in a row, on the same compressor: its arrays grow for a large page and are
     * reused for the smaller ones after it, and each result is the page's raw Snappy block.
     */
    @Test
    void eachPageComesBackAsItsOwnSnappyBlock() throws Exception {
        SnappyPageCompressor compressor = new SnappyPageCompressor();
        Random random = new Random(7);
        byte[] text = "level=INFO service=checkout message=\"request completed\"\n".repeat(20_000)
                .getBytes(StandardCharsets.UTF_8);
        byte[] noise = new byte[300_000];
        random.nextBytes(noise);
        byte[] small = Arrays.copyOf(noise, 17);
        byte[][] pages = {small, text, noise, small, new byte[0], text};
        for (byte[] page : pages) {
            byte[] compressed = compressor.compress(BytesInput.from(page)).toByteArray();
            assertArrayEquals(page, Snappy.uncompress(compressed), "page of " + page.length + " bytes");
            if (page == text) {
                assertTrue(compressed.length < page.length / 10, "text compresses: " + compressed.length);
            }
        }
        // A page made of several parts (levels, then values), as the column writers hand them over.
        BytesInput parts = BytesInput.concat(BytesInput.from(small), BytesInput.from(text, 5, 1000), BytesInput.empty());
        byte[] expected = parts.toByteArray();
        assertArrayEquals(expected, Snappy.uncompress(compressor.compress(parts).toByteArray()));
        compressor.release();
        assertArrayEquals(small, Snappy.uncompress(compressor.compress(BytesInput.from(small)).toByteArray()));
    }

    /** A page far larger than usual does not pin its arrays: the next ordinary page lets them go. */
    @Test
    void aHugePageIsNotKeptForTheNextOne() throws Exception {
        SnappyPageCompressor compressor = new SnappyPageCompressor();
        byte[] ordinary = "a page of ordinary size ".repeat(40_000).getBytes(StandardCharsets.US_ASCII);
        byte[] huge = new byte[3 * SnappyPageCompressor.RETAINED_BYTES];
        new Random(3).nextBytes(huge);
        compressor.compress(BytesInput.from(ordinary));
        long ordinaryHeld = compressor.retainedBytes();
        assertArrayEquals(huge, Snappy.uncompress(compressor.compress(BytesInput.from(huge)).toByteArray()));
        assertTrue(compressor.retainedBytes() > 2L * huge.length);
        assertArrayEquals(ordinary, Snappy.uncompress(compressor.compress(BytesInput.from(ordinary)).toByteArray()));
        assertTrue(compressor.retainedBytes() <= 2 * ordinaryHeld + 2L * ordinary.length,
                compressor.retainedBytes() + " bytes held after an ordinary page");
    }

    /**
     * A file of many small pages and several row groups reads back the same with Snappy as without
     * compression, value for value.
     */
    @Test
    void aSnappyFileHoldsTheSameValuesAsAnUncompressedOne() throws Exception {
        Path snappy = write(Compression.SNAPPY);
        Path none = write(Compression.NONE);
        String columns = "epoch_ms(ts), host, service, message";
        long differing = DuckDb.scalarLong("SELECT count(*) FROM (SELECT " + columns + " FROM read_parquet("
                + DuckDb.literal(snappy) + ") EXCEPT ALL SELECT " + columns + " FROM read_parquet("
                + DuckDb.literal(none) + "))");
        assertEquals(0, differing);
        assertEquals(30_000, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + DuckDb.literal(snappy) + ")"));
        assertTrue(DuckDb.rowGroupCount(snappy) > 1);
        assertEquals(java.util.List.of("SNAPPY"),
                DuckDb.strings("SELECT DISTINCT compression FROM parquet_metadata(" + DuckDb.literal(snappy) + ")"));
    }

    private Path write(Compression compression) throws Exception {
        Path file = dir.resolve(compression + ".parquet");
        ParquetWriterOptions options = ParquetWriterOptions.defaults()
                .withCompression(compression).withPageSize(4096).withRowGroupSize(256 * 1024);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), LogRows.ROW_TYPE, options)) {
            for (int batch = 0; batch < 10; batch++) {
                root.allocateNew();
                LogRows.fill(root, batch * 3_000L, 3_000);
                writer.write(root);
            }
        }
        return file;
    }
}
