package dev.parq.bench.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;

/**
 * Throughput of {@link BatchParser} alone over log-like NDJSON generated in memory: one operation
 * parses the whole corpus into Arrow batches of 8192 rows.
 */
public class ParseBenchmark extends StageBenchmark {

    public static final String SCHEMA = "ts TIMESTAMP_LTZ(3), level STRING, service STRING, host STRING, trace_id STRING,"
            + " latency_ms DOUBLE, status INT, `bytes` BIGINT, `user` ROW<id BIGINT, name STRING, country STRING>,"
            + " tags ARRAY<STRING>, message STRING, error STRING";

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] SERVICES = {"api-gateway", "checkout", "search", "auth", "billing", "inventory"};
    private static final String[] MESSAGES = {
        "request completed in time",
        "user \\\"alice\\\" logged in from café in Zürich",
        "cache miss for key \\\"product:42\\\"\\tretrying",
        "payment of 12,50 € authorised ✓",
        "slow query:\\nSELECT * FROM orders WHERE id = ?",
        "Получен запрос от клиента 東京",
    };
    private static final String[] TAGS = {"prod", "eu-west-1", "canary", "v2", "k8s", "beta"};

    /** Size of the generated corpus. */
    @Param("64")
    public int megabytes;

    private byte[] data;
    private ByteBuffer buf;
    private BufferAllocator allocator;
    private BatchParser parser;

    @Setup(Level.Trial)
    public void generateCorpus() {
        data = generate(megabytes * 1_000_000L);
        buf = ByteBuffer.allocateDirect(data.length);
        buf.put(data).flip();
        allocator = new RootAllocator();
        parser = new BatchParser(TableSchema.parse(SCHEMA).rowType(), allocator, 8192,
                (file, offset, reason, b, s, e) -> {
                    throw new IllegalStateException(reason + " at " + offset);
                });
    }

    @TearDown(Level.Trial)
    public void close() {
        parser.close();
        allocator.close();
    }

    @Benchmark
    public long parse(Throughput throughput) {
        long rows = 0;
        int pos = 0;
        while (pos < data.length) {
            pos = parser.parse(buf, pos, data.length, "bench", pos);
            rows += parser.rows();
            parser.clear();
        }
        throughput.bytes += data.length;
        throughput.rows += rows;
        return rows;
    }

    /** Log lines of about 400 bytes, from a fixed seed: the same bytes on every run. */
    public static byte[] generate(long bytes) {
        Random random = new Random(42);
        StringBuilder sb = new StringBuilder((int) Math.min(bytes + 1000, Integer.MAX_VALUE - 16));
        long millis = 1_706_700_000_000L;
        while (sb.length() < bytes) {
            millis += random.nextInt(50);
            Instant ts = Instant.ofEpochMilli(millis);
            sb.append("{\"ts\":\"").append(ts).append("\",\"level\":\"").append(LEVELS[random.nextInt(LEVELS.length)])
                    .append("\",\"service\":\"").append(SERVICES[random.nextInt(SERVICES.length)])
                    .append("\",\"host\":\"ip-10-0-").append(random.nextInt(256)).append('-').append(random.nextInt(256))
                    .append(".eu-west-1.compute.internal\",\"trace_id\":\"")
                    .append(Long.toHexString(random.nextLong())).append(Long.toHexString(random.nextLong()))
                    .append("\",\"latency_ms\":").append(random.nextInt(5_000_000) / 1000.0)
                    .append(",\"status\":").append(random.nextInt(10) == 0 ? 500 : 200)
                    .append(",\"bytes\":").append(random.nextInt(1 << 30) * 7L)
                    .append(",\"user\":{\"id\":").append(random.nextInt(1_000_000))
                    .append(",\"name\":\"user_").append(random.nextInt(100_000)).append("\",\"country\":\"")
                    .append(random.nextBoolean() ? "DE" : "FR").append("\"},\"tags\":[");
            int tags = random.nextInt(4);
            for (int i = 0; i < tags; i++) {
                sb.append(i == 0 ? "" : ",").append('"').append(TAGS[random.nextInt(TAGS.length)]).append('"');
            }
            sb.append("],\"message\":\"").append(MESSAGES[random.nextInt(MESSAGES.length)]).append('"');
            if (random.nextInt(20) == 0) {
                sb.append(",\"error\":\"java.io.IOException: connection reset\\n\\tat dev.example.Client.call(Client.java:42)\"");
            }
            sb.append("}\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
