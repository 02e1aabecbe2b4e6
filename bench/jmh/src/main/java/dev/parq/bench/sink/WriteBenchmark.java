package dev.parq.bench.sink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.batch.ArrowSchemas;
import dev.parq.sink.AllTypesRows;
import dev.parq.sink.AppLogRows;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.Compression;
import dev.parq.sink.LogRows;
import dev.parq.sink.ParquetWriterOptions;

/**
 * The Parquet writer alone: one operation writes one batch of 8192 rows, and closes the file (footer
 * included) when it has {@code rowsPerFile} rows, as a sink rolling its files on every checkpoint
 * does; each file chooses its encodings anew. Filling the batch is not timed.
 *
 * <p>{@code rows}: {@code app-log} (rows shaped like an application log, {@link AppLogRows}),
 * {@code log} (an access log, {@link LogRows}) or {@code all-types} (every type, nested ones
 * included, {@link AllTypesRows}). The {@code bytes} counted are the rows' size as NDJSON for
 * {@code app-log}, the size of their Arrow buffers for the others.
 */
public class WriteBenchmark extends StageBenchmark {

    private static final int BATCH = 8192;

    @Param({"app-log", "log", "all-types"})
    public String rows;

    @Param("snappy")
    public String compression;

    @Param("1000000")
    public int rowsPerFile;

    private RowType rowType;
    private Path dir;
    private BufferAllocator allocator;
    private VectorSchemaRoot root;
    private ArrowParquetWriter writer;
    private Path file;
    private int files;
    private long nextRow;
    private int rowsInFile;
    private long batchBytes;

    @Setup(Level.Trial)
    public void open() throws IOException {
        rowType = switch (rows) {
            case "app-log" -> AppLogRows.ROW_TYPE;
            case "log" -> LogRows.ROW_TYPE;
            case "all-types" -> AllTypesRows.ROW_TYPE;
            default -> throw new IllegalArgumentException("rows must be app-log, log or all-types, got " + rows);
        };
        dir = Files.createTempDirectory("parq-write-bench");
        allocator = new RootAllocator();
        root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator);
        root.allocateNew();
    }

    /** The next batch of rows, and a new file when the last one was closed. */
    @Setup(Level.Invocation)
    public void fillBatch() throws IOException {
        if (writer == null) {
            if (file != null) {
                Files.delete(file);
            }
            file = dir.resolve("part-" + files++ + ".parquet");
            writer = new ArrowParquetWriter(new LocalOutputFile(file), rowType,
                    ParquetWriterOptions.defaults().withCompression(Compression.parse(compression)));
        }
        int count = Math.min(BATCH, rowsPerFile - rowsInFile);
        switch (rows) {
            case "app-log" -> batchBytes = AppLogRows.fill(root, nextRow, count);
            case "log" -> LogRows.fill(root, nextRow, count);
            default -> AllTypesRows.fill(root, (int) (nextRow % 100_000), count);
        }
        if (!rows.equals("app-log")) {
            batchBytes = root.getFieldVectors().stream().mapToLong(vector -> vector.getBufferSize()).sum();
        }
        nextRow += count;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        if (writer != null) {
            writer.close();
        }
        root.close();
        allocator.close();
        if (file != null) {
            Files.delete(file);
        }
        Files.delete(dir);
    }

    @Benchmark
    public void write(Throughput throughput) throws IOException {
        writer.write(root);
        rowsInFile += root.getRowCount();
        if (rowsInFile == rowsPerFile) {
            writer.close();
            writer = null;
            rowsInFile = 0;
        }
        throughput.rows += root.getRowCount();
        throughput.bytes += batchBytes;
    }
}
