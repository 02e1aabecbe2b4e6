package dev.parq.sink;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.parq.schema.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Measures the writer alone, on a million log-like rows and on the nested all-types rows; filling
 * the vectors is not timed. Times are the writing thread's CPU time, so that other work on a shared
 * machine does not show up in them. Run with {@code -Dparq.bench=true}; the unit suite skips it.
 */
@EnabledIfSystemProperty(named = "parq.bench", matches = "true")
class WriteThroughputTest {

    private static final int ROWS = 1_000_000;
    private static final int BATCH = 8192;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    private static long cpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * The application log, into one file or into files of 100,000 rows, as a sink rolling its
     * files on every checkpoint writes them; each file chooses its encodings anew.
     */
    @ParameterizedTest
    @ValueSource(ints = {ROWS, 100_000})
    void writesAMillionAppLogRows(int rowsPerFile) throws Exception {
        for (int run = 0; run < 5; run++) {
            long jsonBytes = 0;
            long parquetBytes = 0;
            long nanos = 0;
            try (BufferAllocator allocator = new RootAllocator();
                    VectorSchemaRoot root =
                            VectorSchemaRoot.create(ArrowSchemas.toArrow(AppLogRows.ROW_TYPE), allocator)) {
                root.allocateNew();
                for (int fileFirst = 0; fileFirst < ROWS; fileFirst += rowsPerFile) {
                    Path file = dir.resolve("app-log-" + run + "-" + fileFirst + ".parquet");
                    ArrowParquetWriter writer = new ArrowParquetWriter(
                            new LocalOutputFile(file), AppLogRows.ROW_TYPE, ParquetWriterOptions.defaults());
                    int fileEnd = Math.min(ROWS, fileFirst + rowsPerFile);
                    for (int first = fileFirst; first < fileEnd; first += BATCH) {
                        jsonBytes += AppLogRows.fill(root, first, Math.min(BATCH, fileEnd - first));
                        long start = cpuNanos();
                        writer.write(root);
                        nanos += cpuNanos() - start;
                    }
                    long start = cpuNanos();
                    writer.close();
                    nanos += cpuNanos() - start;
                    parquetBytes += Files.size(file);
                    Files.delete(file);
                }
            }
            double seconds = nanos / 1e9;
            System.out.printf("parq.bench app log, %,d rows a file, run %d: %,d rows in %.2f s CPU = %,.0f rows/s;"
                            + " NDJSON input %.1f MB at %.1f MB/s; Parquet %.1f MB%n",
                    rowsPerFile, run, ROWS, seconds, ROWS / seconds, jsonBytes / 1e6, jsonBytes / 1e6 / seconds,
                    parquetBytes / 1e6);
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void writesAMillionLogRows(Compression compression) throws Exception {
        for (int run = 0; run < 3; run++) {
            Path file = dir.resolve(compression + "-" + run + ".parquet");
            long arrowBytes = 0;
            long nanos = 0;
            try (BufferAllocator allocator = new RootAllocator();
                    VectorSchemaRoot root =
                            VectorSchemaRoot.create(ArrowSchemas.toArrow(LogRows.ROW_TYPE), allocator)) {
                root.allocateNew();
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), LogRows.ROW_TYPE,
                        ParquetWriterOptions.defaults().withCompression(compression));
                for (int first = 0; first < ROWS; first += BATCH) {
                    LogRows.fill(root, first, Math.min(BATCH, ROWS - first));
                    arrowBytes += root.getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
                    long start = cpuNanos();
                    writer.write(root);
                    nanos += cpuNanos() - start;
                }
                long start = cpuNanos();
                writer.close();
                nanos += cpuNanos() - start;
            }
            double seconds = nanos / 1e9;
            long parquetBytes = Files.size(file);
            System.out.printf("parq.bench %s run %d: %,d rows in %.2f s CPU = %,.0f rows/s; Parquet %.1f MB at %.1f MB/s;"
                            + " Arrow input %.1f MB at %.1f MB/s%n",
                    compression, run, ROWS, seconds, ROWS / seconds, parquetBytes / 1e6, parquetBytes / 1e6 / seconds,
                    arrowBytes / 1e6, arrowBytes / 1e6 / seconds);
        }
    }

    @RepeatedTest(3)
    void writesNestedRows() throws Exception {
        int rows = 300_000;
        Path file = dir.resolve("nested-" + System.nanoTime() + ".parquet");
        long nanos = 0;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(AllTypesRows.ROW_TYPE), allocator)) {
            root.allocateNew();
            ArrowParquetWriter writer = new ArrowParquetWriter(
                    new LocalOutputFile(file), AllTypesRows.ROW_TYPE, ParquetWriterOptions.defaults());
            for (int first = 0; first < rows; first += BATCH) {
                AllTypesRows.fill(root, first % 100_000, Math.min(BATCH, rows - first));
                long start = cpuNanos();
                writer.write(root);
                nanos += cpuNanos() - start;
            }
            long start = cpuNanos();
            writer.close();
            nanos += cpuNanos() - start;
        }
        System.out.printf("parq.bench all types, nested: %,d rows in %.2f s CPU = %,.0f rows/s; Parquet %.1f MB%n",
                rows, nanos / 1e9, rows / (nanos / 1e9),
                Files.size(file) / 1e6);
    }
}
