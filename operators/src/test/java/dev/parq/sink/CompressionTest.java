package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import dev.parq.batch.ArrowSchemas;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompressionTest {

    @TempDir
    Path dir;

    @Test
    void parsesNamesIgnoringCase() {
        assertEquals(Compression.ZSTD, Compression.parse("zstd"));
        assertEquals(Compression.LZ4_RAW, Compression.parse(" Lz4_Raw "));
        assertEquals(Compression.NONE, Compression.parse("NONE"));
        assertEquals(CompressionCodecName.UNCOMPRESSED, Compression.NONE.codec());
        assertEquals(Compression.SNAPPY, ParquetWriterOptions.defaults().compression());
    }

    @Test
    void rejectsUnknownNamesListingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.parse("brotli"));
        assertEquals("unknown compression 'brotli': choose one of snappy, zstd, gzip, lz4_raw, none", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void everyCodecWritesAFileDuckDbReads(Compression compression) throws Exception {
        Path file = dir.resolve(compression + ".parquet");
        int rows = 5_000;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), LogRows.ROW_TYPE,
                        ParquetWriterOptions.defaults().withCompression(compression))) {
            root.allocateNew();
            LogRows.fill(root, 0, rows);
            writer.write(root);
        }
        String source = DuckDb.literal(file);
        assertEquals(rows, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + source + ")"));
        assertEquals(
                rows * 7L * (rows - 1) / 2,
                DuckDb.scalarLong("SELECT sum(epoch_ms(ts) - 1700000000000) FROM read_parquet(" + source + ")"));
        List<String> codecs = DuckDb.strings(
                "SELECT DISTINCT compression FROM parquet_metadata(" + source + ")");
        assertEquals(List.of(compression.codec().name()), codecs);
        assertTrue(DuckDb.scalarLong("SELECT count(DISTINCT message) FROM read_parquet(" + source + ")") == rows);
    }

    /**
     * A file of many small pages and several row groups reads back the same with each codec as
     * without compression, value for value.
     */
    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aCompressedFileHoldsTheSameValuesAsAnUncompressedOne(Compression codec) throws Exception {
        Path compressed = write(codec);
        Path none = write(Compression.NONE);
        String columns = "epoch_ms(ts), host, service, message";
        long differing = DuckDb.scalarLong("SELECT count(*) FROM (SELECT " + columns + " FROM read_parquet("
                + DuckDb.literal(compressed) + ") EXCEPT ALL SELECT " + columns + " FROM read_parquet("
                + DuckDb.literal(none) + "))");
        assertEquals(0, differing);
        assertEquals(30_000, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + DuckDb.literal(compressed) + ")"));
        assertTrue(DuckDb.rowGroupCount(compressed) > 1);
        assertEquals(List.of(codec.codec().name()),
                DuckDb.strings("SELECT DISTINCT compression FROM parquet_metadata(" + DuckDb.literal(compressed) + ")"));
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
