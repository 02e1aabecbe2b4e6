package dev.parq.sink;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.parq.schema.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Measures the writer alone on a million log-like rows; filling the vectors is not timed. Run with
 * {@code -Dparq.bench=true}; the unit suite skips it.
 */
@EnabledIfSystemProperty(named = "parq.bench", matches = "true")
class WriteThroughputTest {

    private static final int ROWS = 1_000_000;
    private static final int BATCH = 8192;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"SNAPPY, true", "SNAPPY, false", "ZSTD, true", "ZSTD, false", "NONE, true", "NONE, false"})
    void writesAMillionLogRows(Compression compression, boolean columnar) throws Exception {
        String path = columnar ? "column-wise" : "record-wise";
        for (int run = 0; run < 3; run++) {
            Path file = dir.resolve(compression + "-" + path + "-" + run + ".parquet");
            long arrowBytes = 0;
            long nanos = 0;
            try (BufferAllocator allocator = new RootAllocator();
                    VectorSchemaRoot root =
                            VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator)) {
                root.allocateNew();
                ParquetWriterOptions options = ParquetWriterOptions.defaults().withCompression(compression);
                ArrowParquetWriter writer = columnar
                        ? new ArrowParquetWriter(new LocalOutputFile(file), LogRows.ROW_TYPE, options)
                        : ArrowParquetWriter.recordWise(new LocalOutputFile(file), LogRows.ROW_TYPE, options);
                for (int first = 0; first < ROWS; first += BATCH) {
                    LogRows.fill(root, first, Math.min(BATCH, ROWS - first));
                    arrowBytes += root.getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
                    long start = System.nanoTime();
                    writer.write(root);
                    nanos += System.nanoTime() - start;
                }
                long start = System.nanoTime();
                writer.close();
                nanos += System.nanoTime() - start;
            }
            double seconds = nanos / 1e9;
            long parquetBytes = Files.size(file);
            System.out.printf("parq.bench %s %s run %d: %,d rows in %.2f s = %,.0f rows/s; Parquet %.1f MB at %.1f MB/s;"
                            + " Arrow input %.1f MB at %.1f MB/s%n",
                    compression, path, run, ROWS, seconds, ROWS / seconds, parquetBytes / 1e6, parquetBytes / 1e6 / seconds,
                    arrowBytes / 1e6, arrowBytes / 1e6 / seconds);
        }
    }

    @ParameterizedTest
    @CsvSource({"true", "false", "true", "false"})
    void writesNestedRows(boolean columnar) throws Exception {
        int rows = 300_000;
        Path file = dir.resolve("nested-" + columnar + "-" + System.nanoTime() + ".parquet");
        long nanos = 0;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(AllTypesRows.ROW_TYPE), allocator)) {
            root.allocateNew();
            ParquetWriterOptions options = ParquetWriterOptions.defaults();
            ArrowParquetWriter writer = columnar
                    ? new ArrowParquetWriter(new LocalOutputFile(file), AllTypesRows.ROW_TYPE, options)
                    : ArrowParquetWriter.recordWise(new LocalOutputFile(file), AllTypesRows.ROW_TYPE, options);
            for (int first = 0; first < rows; first += BATCH) {
                AllTypesRows.fill(root, first % 100_000, Math.min(BATCH, rows - first));
                long start = System.nanoTime();
                writer.write(root);
                nanos += System.nanoTime() - start;
            }
            long start = System.nanoTime();
            writer.close();
            nanos += System.nanoTime() - start;
        }
        System.out.printf("parq.bench nested %s: %,d rows in %.2f s = %,.0f rows/s; Parquet %.1f MB%n",
                columnar ? "column-wise" : "record-wise", rows, nanos / 1e9, rows / (nanos / 1e9),
                Files.size(file) / 1e6);
    }
}
