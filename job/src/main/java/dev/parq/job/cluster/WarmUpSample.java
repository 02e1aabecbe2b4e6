package dev.parq.job.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The input of a session cluster's warm-up job: generated application-log lines of the shapes parq
 * meets (timestamps, numbers, booleans, strings with escapes and characters of several scripts, a
 * nested record, a list, absent and null fields), the same bytes on every run.
 *
 * <p>deploy/local writes it with {@link #write} (loaded from the cluster's copy of parq-job.jar,
 * so it uses nothing but the JDK) and converts it with {@code flink run} as the cluster starts: a
 * TaskManager's first job otherwise runs Flink's task and network code and parq's parser and writer
 * cold, interpreted and compiled on the cores that convert.
 */
public final class WarmUpSample {

    /** The sample's columns. */
    static final String SCHEMA = "ts TIMESTAMP_LTZ(3), level STRING, service STRING, host STRING, trace_id STRING,"
            + " latency_ms DOUBLE, status INT, `bytes` BIGINT, ok BOOLEAN,"
            + " `user` ROW<id BIGINT, name STRING, country STRING>, tags ARRAY<STRING>, message STRING,"
            + " error ROW<type STRING, stack STRING>";

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] WORDS = {"request", "completed", "user", "\\\"quoted\\\"", "café", "Zürich",
        "cache", "miss", "retry\\tlater", "12,50 €", "✓", "line\\nbreak", "запрос", "東京", "\\\\path", "\\u00e9t\\u00e9",
        "emoji 😀", "SELECT", "order", "42"};

    private static final int BLOCK_LINES = 10_000;

    private final SplittableRandom random = new SplittableRandom(42);
    private long millis = 1_767_225_600_000L;

    /**
     * Writes whole lines to {@code file}, in blocks of {@value #BLOCK_LINES} (about 3.5 MB), until it
     * holds at least {@code bytes}; a file there is replaced.
     *
     * @return the bytes written
     */
    public static long write(Path file, long bytes) throws IOException {
        WarmUpSample sample = new WarmUpSample();
        long written = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            while (written < bytes) {
                byte[] block = sample.lines(BLOCK_LINES);
                out.write(block);
                written += block.length;
            }
        }
        return written;
    }

    /** The first {@code lines} lines of the sample. */
    static byte[] sample(int lines) {
        return new WarmUpSample().lines(lines);
    }

    private byte[] lines(int lines) {
        StringBuilder sb = new StringBuilder(lines * 400);
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
}
