package dev.parq.sink;

import java.nio.charset.StandardCharsets;

import dev.parq.schema.TableSchema;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/** Rows shaped like an access log: a timestamp, a few low-cardinality strings, numbers and a free-text message. */
public final class LogRows {

    public static final RowType ROW_TYPE = TableSchema.parse("ts TIMESTAMP_LTZ(3), host STRING, service STRING,"
                    + " level STRING, status INT, latency_ms DOUBLE, size_bytes BIGINT, user_id BIGINT, path STRING,"
                    + " message STRING")
            .rowType();

    private static final String[] LEVELS = {"INFO", "WARN", "ERROR", "DEBUG"};
    private static final String[] SERVICES = {"api", "auth", "billing", "search", "frontend"};
    private static final int[] STATUSES = {200, 200, 200, 201, 204, 301, 404, 500};

    private LogRows() {}

    public static void fill(VectorSchemaRoot root, long first, int count) {
        root.getFieldVectors().forEach(FieldVector::reset);
        TimeStampVector ts = (TimeStampVector) root.getVector(0);
        VarCharVector host = (VarCharVector) root.getVector(1);
        VarCharVector service = (VarCharVector) root.getVector(2);
        VarCharVector level = (VarCharVector) root.getVector(3);
        IntVector status = (IntVector) root.getVector(4);
        Float8Vector latency = (Float8Vector) root.getVector(5);
        BigIntVector bytes = (BigIntVector) root.getVector(6);
        BigIntVector user = (BigIntVector) root.getVector(7);
        VarCharVector path = (VarCharVector) root.getVector(8);
        VarCharVector message = (VarCharVector) root.getVector(9);
        for (int row = 0; row < count; row++) {
            long g = first + row;
            int h = Long.hashCode(g * 0x9E3779B97F4A7C15L);
            ts.setSafe(row, 1_700_000_000_000L + g * 7);
            host.setSafe(row, utf8("host-" + Math.floorMod(h, 50) + ".example.internal"));
            service.setSafe(row, utf8(SERVICES[Math.floorMod(h >> 3, SERVICES.length)]));
            level.setSafe(row, utf8(LEVELS[Math.floorMod(h >> 7, LEVELS.length)]));
            status.setSafe(row, STATUSES[Math.floorMod(h >> 9, STATUSES.length)]);
            latency.setSafe(row, Math.floorMod(h, 100_000) / 100.0);
            bytes.setSafe(row, Math.floorMod(h >> 5, 1_000_000));
            if (g % 10 != 0) {
                user.setSafe(row, Math.floorMod(h >> 11, 100_000));
            }
            path.setSafe(row, utf8("/v1/items/" + Math.floorMod(h >> 13, 10_000) + "/detail"));
            message.setSafe(row, utf8("request " + g + " served in " + Math.floorMod(h, 1000)
                    + " ms for session " + Integer.toHexString(h)));
        }
        root.setRowCount(count);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
