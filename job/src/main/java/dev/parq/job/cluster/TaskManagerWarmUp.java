package dev.parq.job.cluster;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;
import dev.parq.sink.Compression;
import dev.parq.sink.FlinkOutputFile;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.ArrowParquetWriter;

/**
 * A TaskManager's warm-up: as the JVM starts Flink's main, it converts a generated sample of
 * NDJSON to Parquet in memory, pass after pass, until for a second the passes have kept one speed
 * and the JIT compilers have been nearly idle. The JIT then has parq's per-value code (the parser's decoders, Arrow, the Parquet pages,
 * dictionaries and compression) compiled before the first job, which otherwise runs that code
 * interpreted and compiles it on the cores that also convert: a session cluster's first job
 * took twice the CPU of its later ones. Started as a Java agent
 * ({@code -javaagent:parq-job.jar}, which deploy/local adds for its TaskManagers), so that the
 * classes it warms are the class path's own, the ones a job loads with parent-first class loading.
 *
 * <p>The agent's argument is the longest the warm-up may take, in seconds (default
 * {@value #DEFAULT_LIMIT_SECONDS}); 0 turns it off. It prints one line to standard error, which a
 * TaskManager keeps in its {@code .out} file. A failure is reported there and the TaskManager starts as
 * it would without the warm-up.
 */
public final class TaskManagerWarmUp {

    static final int DEFAULT_LIMIT_SECONDS = 20;

    /** Lines of the generated sample; about 3.5 MB, a few batches of the parser's default size. */
    private static final int SAMPLE_LINES = 10_000;

    private static final int BATCH_ROWS = 4096;

    /**
     * How long the passes must have kept one speed (nine in ten within {@link #STEADY_SPREAD} of
     * their median, the median within {@link #NEAR_BEST} of the fastest pass) for the warm-up to end. Not the
     * first steady second: the optimising compiler makes some of its first code not entrant once it
     * has seen more, and the code runs slower than the quick compiler's until it is compiled again.
     */
    private static final long STEADY_NANOS = 1_000_000_000L;

    private static final double STEADY_SPREAD = 0.1;

    private static final double NEAR_BEST = 0.7;

    private static final double COMPILING = 0.1;

    static final String SCHEMA = "ts TIMESTAMP_LTZ(3), level STRING, service STRING, host STRING, trace_id STRING,"
            + " latency_ms DOUBLE, status INT, `bytes` BIGINT, ok BOOLEAN,"
            + " `user` ROW<id BIGINT, name STRING, country STRING>, tags ARRAY<STRING>, message STRING,"
            + " error ROW<type STRING, stack STRING>";

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] WORDS = {"request", "completed", "user", "\\\"quoted\\\"", "café", "Zürich",
        "cache", "miss", "retry\\tlater", "12,50 €", "✓", "line\\nbreak", "запрос", "東京", "\\\\path", "\\u00e9t\\u00e9",
        "emoji 😀", "SELECT", "order", "42"};

    private TaskManagerWarmUp() {}

    public static void premain(String args) {
        int limitSeconds = limitSeconds(args);
        if (limitSeconds <= 0) {
            return;
        }
        try {
            Result result = run(limitSeconds * 1_000_000_000L);
            System.err.printf("parq warm-up: %d passes over %.1f MB of NDJSON converted to Parquet in %.1f s,"
                    + " the last at %.0f MB/s (the first at %.0f)%n", result.passes, result.sampleBytes / 1e6,
                    result.nanos / 1e9, result.lastMbPerSecond, result.firstMbPerSecond);
        } catch (Throwable e) {
            System.err.println("parq warm-up: failed, the TaskManager starts without it: " + e);
        }
    }

    /**
     * As the agent: the warm-up runs in a thread of its own beside Flink's start, which binds the
     * ports it was given at once (a start held back by the warm-up lost a port chosen free to
     * another process in the meantime). deploy/local waits for the warm-up's line before it calls
     * the cluster started.
     */
    public static void premain(String args, Instrumentation instrumentation) {
        Thread warmUp = new Thread(() -> premain(args), "parq warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /** The agent's argument, the default if there is none or it is no number (which it says). */
    static int limitSeconds(String args) {
        if (args == null || args.isBlank()) {
            return DEFAULT_LIMIT_SECONDS;
        }
        try {
            return Integer.parseInt(args.trim());
        } catch (NumberFormatException e) {
            System.err.println("parq warm-up: the agent's argument is the longest the warm-up may take, in"
                    + " seconds, not '" + args + "'; warming up for at most " + DEFAULT_LIMIT_SECONDS + " s");
            return DEFAULT_LIMIT_SECONDS;
        }
    }

    record Result(int passes, int sampleBytes, long nanos, double firstMbPerSecond, double lastMbPerSecond) {}

    /** Converts the sample until its passes settle or {@code limitNanos} have gone. */
    static Result run(long limitNanos) throws IOException {
        long start = System.nanoTime();
        byte[] sample = sample(SAMPLE_LINES);
        ByteBuffer input = ByteBuffer.allocateDirect(sample.length).put(sample).flip();
        RowType rowType = TableSchema.parse(SCHEMA).rowType();
        ParquetWriterOptions options = ParquetWriterOptions.defaults().withCompression(Compression.parse("snappy"));
        // A pass's CPU time, not its wall time: other processes starting beside a TaskManager (its
        // JobManager, the other TaskManagers) take the cores at random, and the passes never looked steady.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        boolean compilerTimed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        ArrayDeque<long[]> recent = new ArrayDeque<>(); // {end of the pass, its CPU nanoseconds, compilers' ms so far}
        long fastest = Long.MAX_VALUE;
        long first = 0;
        long last = 0;
        int passes = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            long now = start;
            while (now - start < limitNanos) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                convert(input, rowType, options, allocator);
                now = System.nanoTime();
                last = threads.getCurrentThreadCpuTime() - cpu0;
                first = passes++ == 0 ? last : first;
                fastest = Math.min(fastest, last);
                recent.addLast(new long[] {now, last, compilerTimed ? compiler.getTotalCompilationTime() : 0});
                while (now - recent.peekFirst()[0] > STEADY_NANOS) {
                    recent.removeFirst();
                }
                if (now - start >= STEADY_NANOS && steady(recent, fastest) && compilersIdle(recent)) {
                    break;
                }
            }
        }
        return new Result(passes, sample.length, System.nanoTime() - start, sample.length * 1e3 / first,
                sample.length * 1e3 / last);
    }

    /**
     * Whether the passes of the last {@link #STEADY_NANOS} kept one speed, near the fastest seen: a
     * few slower ones (a collection, another thread) do not count against it.
     */
    private static boolean steady(ArrayDeque<long[]> recent, long fastest) {
        if (recent.size() < 5) {
            return false;
        }
        long[] times = recent.stream().mapToLong(pass -> pass[1]).sorted().toArray();
        long median = times[times.length / 2];
        long outside = Arrays.stream(times).filter(t -> Math.abs(t - median) > STEADY_SPREAD * median).count();
        return fastest >= NEAR_BEST * median && outside <= times.length / 10;
    }

    /**
     * Whether the compilers spent at most {@link #COMPILING} of the last passes' time: until then
     * the passes may be steady at the quick compiler's speed while the optimising one works.
     */
    private static boolean compilersIdle(ArrayDeque<long[]> recent) {
        long[] oldest = recent.peekFirst();
        long[] newest = recent.peekLast();
        long spanMillis = (newest[0] - oldest[0] + oldest[1]) / 1_000_000;
        return newest[2] - oldest[2] <= COMPILING * spanMillis;
    }

    private static void convert(ByteBuffer input, RowType rowType, ParquetWriterOptions options,
            BufferAllocator allocator) throws IOException {
        try (BatchParser parser = new BatchParser(rowType, allocator, BATCH_ROWS, (file, offset, reason, b, s, e) -> {
                    throw new IllegalStateException("the warm-up's own sample has a bad line at " + offset + ": " + reason);
                });
                ArrowParquetWriter writer = new ArrowParquetWriter(new FlinkOutputFile(new Discarded()), rowType, options)) {
            int pos = 0;
            while (pos < input.limit()) {
                pos = parser.parse(input, pos, input.limit(), "warm-up", pos);
                writer.write(parser.batch());
                parser.clear();
            }
        }
    }

    /**
     * Application-log lines of the shapes parq meets: timestamps, numbers, booleans, strings with
     * escapes and characters of several scripts, a nested record, a list, absent and null fields.
     */
    static byte[] sample(int lines) {
        SplittableRandom random = new SplittableRandom(42);
        StringBuilder sb = new StringBuilder(lines * 400);
        long millis = 1_767_225_600_000L;
        for (int i = 0; i < lines; i++) {
            millis += random.nextInt(50);
            sb.append("{\"ts\":\"").append(java.time.Instant.ofEpochMilli(millis)).append("\",\"level\":\"")
                    .append(LEVELS[random.nextInt(LEVELS.length)]).append("\",\"service\":\"svc-")
                    .append(random.nextInt(12)).append("\",\"host\":\"ip-10-0-").append(random.nextInt(256)).append('-')
                    .append(random.nextInt(256)).append(".internal\",\"trace_id\":\"")
                    .append(Long.toHexString(random.nextLong())).append(Long.toHexString(random.nextLong()))
                    .append("\",\"latency_ms\":").append(random.nextInt(5_000_000) / 1000.0)
                    .append(",\"status\":").append(random.nextInt(10) == 0 ? 500 : 200)
                    .append(",\"bytes\":").append(random.nextLong(1L << 40))
                    .append(",\"ok\":").append(random.nextBoolean())
                    .append(",\"user\":{\"id\":").append(random.nextInt(1_000_000)).append(",\"name\":\"user_")
                    .append(random.nextInt(100_000)).append("\",\"country\":")
                    .append(random.nextInt(8) == 0 ? "null" : random.nextBoolean() ? "\"DE\"" : "\"FR\"")
                    .append("},\"tags\":[");
            int tags = random.nextInt(4);
            for (int t = 0; t < tags; t++) {
                sb.append(t == 0 ? "" : ",").append("\"tag").append(random.nextInt(20)).append('"');
            }
            sb.append("],\"message\":\"");
            int words = 3 + random.nextInt(12);
            for (int w = 0; w < words; w++) {
                sb.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            sb.append('"');
            if (random.nextInt(20) == 0) {
                sb.append(",\"error\":{\"type\":\"java.io.IOException\",\"stack\":\"connection reset\\n\\tat ")
                        .append("dev.example.Client.call(Client.java:").append(random.nextInt(500)).append(")\"}");
            }
            sb.append("}\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Flink's stream of a part file that goes nowhere: the warm-up wants the work of writing
     * (through the same buffered stream as the sink's), not the bytes.
     */
    private static final class Discarded extends FSDataOutputStream {
        private long pos;

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) {
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            pos += len;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public void close() {}
    }
}
