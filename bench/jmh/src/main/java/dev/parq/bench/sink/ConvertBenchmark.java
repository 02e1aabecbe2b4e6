package dev.parq.sink.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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

import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.Compression;
import dev.parq.sink.ParquetWriterOptions;

/**
 * Steady-state cost of the conversion without Flink: one thread parses the first megabytes of an
 * NDJSON file into Arrow batches and writes them to a Parquet file, round after round, and reports
 * the thread's CPU time per round, split into parsing and writing, so that other load on the
 * machine does not distort it. Run:
 * {@code java -cp <test classpath> dev.parq.sink.bench.ConvertBenchmark FILE SCHEMA [megabytes] [rounds]}
 * with the corpus of {@code bench/run} and the schema parq infers for it (or
 * {@code bench/app-logs.ddl}).
 */
public final class ConvertBenchmark {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private ConvertBenchmark() {}

    public static void main(String[] args) throws IOException {
        Path input = Paths.get(args[0]);
        String ddl = args[1].startsWith("@") ? Files.readString(Paths.get(args[1].substring(1))).trim() : args[1];
        RowType rowType = TableSchema.parse(ddl).rowType();
        long megabytes = args.length > 2 ? Long.parseLong(args[2]) : 256;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        ByteBuffer data = load(input, megabytes << 20);
        Path output = Files.createTempFile("parq-convert-bench", ".parquet");
        System.out.printf("%s: %.1f MB of NDJSON%n", input, data.limit() / 1e6);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int round = 1; round <= rounds; round++) {
                Files.deleteIfExists(output);
                long parseNanos = 0;
                long writeNanos = 0;
                long rows = 0;
                long wallStart = System.nanoTime();
                try (BatchParser parser = new BatchParser(rowType, allocator, 4096,
                                (file, offset, reason, b, s, e) -> {
                                    throw new IllegalStateException(reason + " at " + offset);
                                });
                        ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(output),
                                rowType, ParquetWriterOptions.defaults().withCompression(
                                        Compression.parse(System.getProperty("compression", "snappy"))))) {
                    int pos = 0;
                    while (pos < data.limit()) {
                        long t0 = CPU.getCurrentThreadCpuTime();
                        pos = parser.parse(data, pos, data.limit(), "bench", pos);
                        long t1 = CPU.getCurrentThreadCpuTime();
                        writer.write(parser.batch());
                        long t2 = CPU.getCurrentThreadCpuTime();
                        parseNanos += t1 - t0;
                        writeNanos += t2 - t1;
                        rows += parser.rows();
                        parser.clear();
                    }
                    long t0 = CPU.getCurrentThreadCpuTime();
                    writer.close();
                    writeNanos += CPU.getCurrentThreadCpuTime() - t0;
                }
                double mb = data.limit() / 1e6;
                double cpu = (parseNanos + writeNanos) / 1e9;
                System.out.printf("round %d: %d rows, CPU %.2f s = %.0f MB/s per core (parse %.2f s = %.0f MB/s,"
                                + " write %.2f s = %.0f MB/s), wall %.2f s, %.1f MB out%n",
                        round, rows, cpu, mb / cpu, parseNanos / 1e9, mb / (parseNanos / 1e9), writeNanos / 1e9,
                        mb / (writeNanos / 1e9), (System.nanoTime() - wallStart) / 1e9, Files.size(output) / 1e6);
            }
        } finally {
            Files.deleteIfExists(output);
        }
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
