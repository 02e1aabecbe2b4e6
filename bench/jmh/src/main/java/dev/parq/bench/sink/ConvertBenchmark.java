package dev.parq.bench.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.bench.parse.ParseBenchmark;
import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.Compression;
import dev.parq.sink.ParquetWriterOptions;

/**
 * The conversion without Flink: one thread parses NDJSON into Arrow batches and writes them to a
 * Parquet file; one operation converts the whole input. The input is {@link ParseBenchmark}'s
 * generated corpus, or with {@code -p input=FILE -p schema=DDL} (or {@code schema=@FILE}) the first
 * {@code megabytes} of a file such as bench/run's corpus with {@code bench/app-logs.ddl}.
 */
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 5, time = 10)
public class ConvertBenchmark extends StageBenchmark {

    /** An NDJSON file; empty for the generated corpus. */
    @Param("")
    public String input;

    /** The schema of {@link #input}, as DDL or {@code @FILE}; empty for the generated corpus's. */
    @Param("")
    public String schema;

    /** How much of the input is converted, cut after its last whole line. */
    @Param("256")
    public long megabytes;

    @Param("snappy")
    public String compression;

    private RowType rowType;
    private ByteBuffer data;
    private Path output;
    private BufferAllocator allocator;

    @Setup(Level.Trial)
    public void load() throws IOException {
        if (input.isEmpty()) {
            byte[] generated = ParseBenchmark.generate(megabytes * 1_000_000L);
            data = ByteBuffer.allocateDirect(generated.length).put(generated).flip();
            rowType = TableSchema.parse(ParseBenchmark.SCHEMA).rowType();
        } else {
            data = load(Paths.get(input), megabytes << 20);
            String ddl = schema.startsWith("@") ? Files.readString(Paths.get(schema.substring(1))).trim() : schema;
            rowType = TableSchema.parse(ddl).rowType();
        }
        output = Files.createTempFile("parq-convert-bench", ".parquet");
        allocator = new RootAllocator();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        allocator.close();
        Files.deleteIfExists(output);
    }

    @Benchmark
    public long convert(Throughput throughput) throws IOException {
        Files.deleteIfExists(output);
        long rows = 0;
        try (BatchParser parser = new BatchParser(rowType, allocator, 4096,
                        (file, offset, reason, b, s, e) -> {
                            throw new IllegalStateException(reason + " at " + offset);
                        });
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(output), rowType,
                        ParquetWriterOptions.defaults().withCompression(Compression.parse(compression)))) {
            int pos = 0;
            while (pos < data.limit()) {
                pos = parser.parse(data, pos, data.limit(), "bench", pos);
                writer.write(parser.batch());
                rows += parser.rows();
                parser.clear();
            }
        }
        throughput.bytes += data.limit();
        throughput.rows += rows;
        return rows;
    }

    /** The file's first {@code limit} bytes, cut after the last whole line, in a direct buffer. */
    private static ByteBuffer load(Path input, long limit) throws IOException {
        try (FileChannel channel = FileChannel.open(input, StandardOpenOption.READ)) {
            int size = (int) Math.min(Math.min(channel.size(), limit), Integer.MAX_VALUE - 16);
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            while (buf.hasRemaining() && channel.read(buf) >= 0) {
                // keep reading
            }
            int end = buf.position();
            while (end > 0 && buf.get(end - 1) != '\n') {
                end--;
            }
            buf.position(0).limit(end);
            return buf.slice();
        }
    }
}
