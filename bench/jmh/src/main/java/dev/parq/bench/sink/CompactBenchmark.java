package dev.parq.bench.sink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.sink.AllTypesRows;
import dev.parq.sink.AppLogRows;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.Compression;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.compact.PartFileReader;

/**
 * One compaction of ingest, without Flink: one operation reads {@code files} part files back into
 * Arrow batches ({@link PartFileReader}) and writes their rows into one file with the sink's writer.
 * The part files, of {@code rowsPerFile} rows each (one reader's checkpoint), are written once. The
 * {@code bytes} counted are the part files' size on disk, the {@code rows} theirs.
 *
 * <p>{@code rows}: {@code app-log} ({@link AppLogRows}) or {@code all-types} (every type, nested
 * ones included, {@link AllTypesRows}).
 */
public class CompactBenchmark extends StageBenchmark {

    private static final int BATCH = 8192;

    @Param({"app-log", "all-types"})
    public String rows;

    @Param("snappy")
    public String compression;

    @Param("10")
    public int files;

    @Param("40000")
    public int rowsPerFile;

    private RowType rowType;
    private ParquetWriterOptions options;
    private Path dir;
    private final List<org.apache.flink.core.fs.Path> parts = new ArrayList<>();
    private long partBytes;
    private int compactions;

    @Setup(Level.Trial)
    public void writeParts() throws IOException {
        rowType = rows.equals("app-log") ? AppLogRows.ROW_TYPE : AllTypesRows.ROW_TYPE;
        options = ParquetWriterOptions.defaults().withCompression(Compression.parse(compression));
        dir = Files.createTempDirectory("parq-compact-bench");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator)) {
            root.allocateNew();
            long next = 0;
            for (int f = 0; f < files; f++) {
                Path part = dir.resolve(".part-" + f + ".parquet");
                try (ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(part), rowType, options)) {
                    for (int written = 0; written < rowsPerFile; written += BATCH) {
                        int count = Math.min(BATCH, rowsPerFile - written);
                        if (rows.equals("app-log")) {
                            AppLogRows.fill(root, next, count);
                        } else {
                            AllTypesRows.fill(root, (int) (next % 100_000), count);
                        }
                        next += count;
                        writer.write(root);
                    }
                }
                partBytes += Files.size(part);
                parts.add(new org.apache.flink.core.fs.Path(part.toUri()));
            }
        }
    }

    @TearDown(Level.Trial)
    public void deleteParts() throws IOException {
        try (var left = Files.list(dir)) {
            for (Path file : left.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    @Benchmark
    public void compact(Throughput throughput) throws IOException {
        Path compacted = dir.resolve("compacted-" + compactions++ + ".parquet");
        long rowsRead = 0;
        try (ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(compacted), rowType, options)) {
            for (org.apache.flink.core.fs.Path part : parts) {
                try (PartFileReader reader = new PartFileReader(FileSystem.getLocalFileSystem(), part, rowType)) {
                    for (ArrowBatch batch = reader.read(); batch != null; batch = reader.read()) {
                        writer.write(batch.root());
                        rowsRead += batch.rowCount();
                    }
                }
            }
        }
        Files.delete(compacted);
        throughput.rows += rowsRead;
        throughput.bytes += partBytes;
    }
}
