package dev.parq.sink;

import java.nio.charset.StandardCharsets;

import dev.parq.schema.TableSchema;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;

/**
 * Rows shaped like a real application log: low-cardinality level, service, host and country, a
 * trace id unique per row, free-text messages, a user row, a tags array, and an error row that is
 * present on one row in twenty. {@link #fill} also counts the bytes the rows would take as NDJSON,
 * the input a conversion reads.
 */
public final class AppLogRows {

    public static final RowType ROW_TYPE = TableSchema.parse("ts TIMESTAMP_LTZ(3), level STRING, service STRING,"
                    + " host STRING, trace_id STRING, latency_ms DOUBLE, status BIGINT, `bytes` BIGINT,"
                    + " `user` ROW<id BIGINT, name STRING, country STRING>, tags ARRAY<STRING>, message STRING,"
                    + " error ROW<`type` STRING, code BIGINT, message STRING, retryable BOOLEAN, attempt BIGINT>")
            .rowType();

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] SERVICES = {"api-gateway", "auth", "billing", "search", "frontend",
        "inventory", "notifications", "checkout"};
    private static final String[] COUNTRIES = {"US", "DE", "FR", "GB", "JP", "BR", "IN", "CA", "NL", "SE"};
    private static final String[] TAGS = {"canary", "beta", "mobile", "web", "retry", "cache-miss", "slow",
        "internal", "batch", "eu"};
    private static final String[] VERBS = {"GET", "POST", "PUT", "DELETE"};
    private static final String[] ERRORS = {"TimeoutException", "ConnectionReset", "ValidationError",
        "UpstreamUnavailable", "RateLimited"};
    private static final long[] STATUSES = {200, 200, 200, 200, 201, 204, 301, 400, 404, 500, 503};
    private static final String[] WORDS = {"order", "cart", "payment", "session", "profile", "token", "item",
        "invoice", "shipment", "search", "query", "index", "user", "account", "refund"};

    private AppLogRows() {}

    /** Fills {@code count} rows starting at global row {@code first}; returns their size as NDJSON. */
    public static long fill(VectorSchemaRoot root, long first, int count) {
        root.getFieldVectors().forEach(FieldVector::reset);
        TimeStampVector ts = (TimeStampVector) root.getVector("ts");
        VarCharVector level = (VarCharVector) root.getVector("level");
        VarCharVector service = (VarCharVector) root.getVector("service");
        VarCharVector host = (VarCharVector) root.getVector("host");
        VarCharVector traceId = (VarCharVector) root.getVector("trace_id");
        Float8Vector latency = (Float8Vector) root.getVector("latency_ms");
        BigIntVector status = (BigIntVector) root.getVector("status");
        BigIntVector bytes = (BigIntVector) root.getVector("bytes");
        StructVector user = (StructVector) root.getVector("user");
        BigIntVector userId = (BigIntVector) user.getChild("id");
        VarCharVector userName = (VarCharVector) user.getChild("name");
        VarCharVector country = (VarCharVector) user.getChild("country");
        ListVector tags = (ListVector) root.getVector("tags");
        VarCharVector tag = (VarCharVector) tags.getDataVector();
        VarCharVector message = (VarCharVector) root.getVector("message");
        StructVector error = (StructVector) root.getVector("error");
        VarCharVector errorType = (VarCharVector) error.getChild("type");
        BigIntVector errorCode = (BigIntVector) error.getChild("code");
        VarCharVector errorMessage = (VarCharVector) error.getChild("message");
        BitVector retryable = (BitVector) error.getChild("retryable");
        BigIntVector attempt = (BigIntVector) error.getChild("attempt");
        StringBuilder json = new StringBuilder(512);
        long jsonBytes = 0;
        int tagCount = 0;
        for (int row = 0; row < count; row++) {
            long g = first + row;
            long h = mix(g);
            int u = (int) Math.floorMod(h >>> 20, 20_000);
            json.setLength(0);
            long millis = 1_700_000_000_000L + g * 3 + (h & 7);
            ts.setSafe(row, millis);
            json.append("{\"ts\":\"2023-11-14T22:13:20.000Z\"");
            jsonBytes += put(level, row, LEVELS[(int) Math.floorMod(h, LEVELS.length)], "level", json);
            jsonBytes += put(service, row, SERVICES[(int) Math.floorMod(h >>> 4, SERVICES.length)], "service", json);
            jsonBytes += put(host, row, "ip-10-0-" + Math.floorMod(h >>> 8, 40) + ".ec2.internal", "host", json);
            jsonBytes += put(traceId, row, Long.toHexString(h) + Long.toHexString(mix(h)), "trace_id", json);
            double ms = Math.floorMod(h >>> 12, 250_000) / 100.0;
            latency.setSafe(row, ms);
            long code = STATUSES[(int) Math.floorMod(h >>> 16, STATUSES.length)];
            status.setSafe(row, code);
            long size = Math.floorMod(h >>> 24, 2_000_000);
            bytes.setSafe(row, size);
            json.append(",\"latency_ms\":").append(ms).append(",\"status\":").append(code)
                    .append(",\"bytes\":").append(size);
            user.setIndexDefined(row);
            userId.setSafe(row, u);
            json.append(",\"user\":{\"id\":").append(u);
            jsonBytes += put(userName, row, "user" + u, "name", json);
            jsonBytes += put(country, row, COUNTRIES[u % COUNTRIES.length], "country", json);
            json.append("},\"tags\":[");
            int tagsHere = (int) Math.floorMod(h >>> 28, 4);
            tags.startNewValue(row);
            for (int t = 0; t < tagsHere; t++) {
                String value = TAGS[(int) Math.floorMod((h >>> (32 + 4 * t)), TAGS.length)];
                tag.setSafe(tagCount++, utf8(value));
                json.append(t == 0 ? "\"" : ",\"").append(value).append('"');
            }
            tags.endValue(row, tagsHere);
            json.append(']');
            String text = VERBS[(int) Math.floorMod(h >>> 40, VERBS.length)] + " /api/v2/"
                    + WORDS[(int) Math.floorMod(h >>> 44, WORDS.length)] + "/" + Math.floorMod(h >>> 30, 1_000_000)
                    + " completed for user" + u + " in " + ms + " ms, " + WORDS[(int) Math.floorMod(h >>> 48,
                    WORDS.length)] + " " + Long.toHexString(mix(h + 1) & 0xFFFFFFL) + " ok";
            jsonBytes += put(message, row, text, "message", json);
            if (Math.floorMod(h >>> 52, 20) == 0) {
                error.setIndexDefined(row);
                String type = ERRORS[(int) Math.floorMod(h >>> 56, ERRORS.length)];
                json.append(",\"error\":{");
                jsonBytes += put(errorType, row, type, "type", json);
                errorCode.setSafe(row, 1000 + Math.floorMod(h, 40));
                jsonBytes += put(errorMessage, row, type + " after " + ms + " ms calling "
                        + SERVICES[(int) Math.floorMod(h >>> 5, SERVICES.length)] + " for trace "
                        + Long.toHexString(h), "message", json);
                retryable.setSafe(row, (h & 1) == 0 ? 1 : 0);
                attempt.setSafe(row, 1 + Math.floorMod(h >>> 3, 3));
                json.append(",\"code\":").append(1000 + Math.floorMod(h, 40)).append(",\"retryable\":true,\"attempt\":1}");
            } else {
                error.setNull(row);
            }
            json.append("}\n");
            jsonBytes += json.length();
        }
        tag.setValueCount(tagCount);
        root.setRowCount(count);
        return jsonBytes;
    }

    /** Sets {@code value} and appends it as a JSON field; returns its UTF-8 bytes beyond its chars. */
    private static int put(VarCharVector vector, int row, String value, String name, StringBuilder json) {
        byte[] bytes = utf8(value);
        vector.setSafe(row, bytes);
        json.append(",\"").append(name).append("\":\"").append(value).append('"');
        return bytes.length - value.length();
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E5BL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
