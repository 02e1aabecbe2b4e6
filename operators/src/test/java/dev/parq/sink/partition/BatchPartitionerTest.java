package dev.parq.sink.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.parq.batch.ArrowBatch;
import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.TableSchema;

class BatchPartitionerTest {

    private static final TableSchema SCHEMA = TableSchema.parse(
            "ts TIMESTAMP_LTZ(3), local_ts TIMESTAMP(6), d DATE, level STRING, n BIGINT, tags ARRAY<STRING>,"
                    + " attrs MAP<STRING, BIGINT>, user ROW<name STRING>");

    private BufferAllocator allocator;
    private VectorSchemaRoot root;

    @BeforeEach
    void allocate() {
        allocator = new RootAllocator();
        root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA.rowType()), allocator);
        root.allocateNew();
    }

    @AfterEach
    void release() {
        root.close();
        allocator.close();
    }

    /** One row: {@code ts} an instant or null, {@code level} a value or null. */
    private void row(int row, String ts, String level) {
        TimeStampVector instants = (TimeStampVector) root.getVector("ts");
        if (ts == null) {
            instants.setNull(row);
        } else {
            ((org.apache.arrow.vector.TimeStampMilliTZVector) instants).setSafe(row, Instant.parse(ts).toEpochMilli());
        }
        long micros = ts == null ? 0 : Instant.parse(ts).toEpochMilli() * 1000;
        ((org.apache.arrow.vector.TimeStampMicroVector) root.getVector("local_ts")).setSafe(row, micros);
        ((DateDayVector) root.getVector("d")).setSafe(row, (int) (micros / 86_400_000_000L));
        VarCharVector levels = (VarCharVector) root.getVector("level");
        if (level == null) {
            levels.setNull(row);
        } else {
            levels.setSafe(row, level.getBytes(StandardCharsets.UTF_8));
        }
        ((BigIntVector) root.getVector("n")).setSafe(row, row);
        ListVector tags = (ListVector) root.getVector("tags");
        int first = tags.startNewValue(row);
        ((VarCharVector) tags.getDataVector()).setSafe(first, ("t" + row).getBytes(StandardCharsets.UTF_8));
        tags.endValue(row, 1);
        StructVector user = (StructVector) root.getVector("user");
        ((VarCharVector) user.getChild("name")).setSafe(row, ("u" + row).getBytes(StandardCharsets.UTF_8));
        user.setIndexDefined(row);
        root.setRowCount(row + 1);
    }

    /** What came out: per batch, its partition and its rows' n, and whether it is the input's vectors. */
    private record Out(String partition, List<Long> n, int columns, boolean sameVectors) {}

    private List<Out> partition(String expressions, ZoneId zone) {
        PartitionSpec spec = PartitionSpec.parse(expressions, SCHEMA.rowType(), zone);
        List<Out> out = new ArrayList<>();
        new BatchPartitioner(spec).partition(new ArrowBatch(root, "in", 0, 100), batch -> {
            assertEquals(ArrowSchemas.toArrow(spec.fileType()), batch.root().getSchema(), "the file schema");
            List<Long> n = new ArrayList<>();
            BigIntVector values = (BigIntVector) batch.root().getVector("n");
            for (int i = 0; i < batch.rowCount(); i++) {
                n.add(values.get(i));
                assertEquals("[\"t" + values.get(i) + "\"]", batch.root().getVector("tags").getObject(i).toString());
                assertEquals("{\"name\":\"u" + values.get(i) + "\"}",
                        batch.root().getVector("user").getObject(i).toString());
            }
            out.add(new Out(batch.partition(), n, batch.root().getFieldVectors().size(),
                    batch.root().getVector("n") == root.getVector("n")));
        });
        return out;
    }

    @Test
    void aBatchOfOnePartitionGoesOnAsItIs() {
        row(0, "2024-03-01T00:00:00Z", "INFO");
        row(1, "2024-03-01T23:59:59.999Z", "WARN");
        List<Out> out = partition("day(ts)", ZoneOffset.UTC);
        assertEquals(List.of(new Out("ts_day=2024-03-01", List.of(0L, 1L), 8, true)), out);
    }

    @Test
    void runsBecomeSlicesInInputOrder() {
        row(0, "2024-03-01T22:00:00Z", "INFO");
        row(1, "2024-03-01T23:00:00Z", "INFO");
        row(2, "2024-03-02T00:00:00Z", "INFO");
        row(3, "2024-03-02T01:00:00Z", "INFO");
        row(4, "2024-03-03T01:00:00Z", "INFO");
        List<Out> out = partition("day(ts)", ZoneOffset.UTC);
        assertEquals(List.of(new Out("ts_day=2024-03-01", List.of(0L, 1L), 8, false),
                new Out("ts_day=2024-03-02", List.of(2L, 3L), 8, false),
                new Out("ts_day=2024-03-03", List.of(4L), 8, false)), out);
    }

    @Test
    void interleavedValuesAreGatheredAndTheirColumnLeftOut() {
        row(0, "2024-03-01T00:00:00Z", "INFO");
        row(1, "2024-03-01T00:00:01Z", "a/b=c");
        row(2, "2024-03-01T00:00:02Z", "INFO");
        row(3, "2024-03-01T00:00:03Z", null);
        row(4, "2024-03-01T00:00:04Z", "");
        row(5, "2024-03-01T00:00:05Z", "a/b=c");
        List<Out> out = partition("level", ZoneOffset.UTC);
        assertEquals(List.of(new Out("level=INFO", List.of(0L, 2L), 7, false),
                new Out("level=a%2Fb%3Dc", List.of(1L, 5L), 7, false),
                new Out("level=__HIVE_DEFAULT_PARTITION__", List.of(3L, 4L), 7, false)), out);
    }

    @Test
    void nestedLevelsAndNullTimestamps() {
        row(0, "2024-03-01T13:59:59Z", "INFO");
        row(1, null, "INFO");
        row(2, "2024-03-01T14:00:00Z", "INFO");
        List<Out> out = partition("hour(ts),level", ZoneOffset.UTC);
        assertEquals(List.of("ts_hour=2024-03-01-13/level=INFO", "ts_hour=__HIVE_DEFAULT_PARTITION__/level=INFO",
                "ts_hour=2024-03-01-14/level=INFO"), out.stream().map(Out::partition).toList());
    }

    /** An instant's day in the zone asked for; a TIMESTAMP's and a DATE's as written, whatever the zone. */
    @Test
    void instantsTakeTheZoneLocalTimesDoNot() {
        row(0, "2024-03-01T23:30:00Z", "INFO");
        ZoneId paris = ZoneId.of("Europe/Paris");
        assertEquals("ts_day=2024-03-02", partition("day(ts)", paris).get(0).partition());
        assertEquals("local_ts_day=2024-03-01", partition("day(local_ts)", paris).get(0).partition());
        assertEquals("d_month=2024-03", partition("month(d)", paris).get(0).partition());
        assertEquals("ts_year=2024", partition("year(ts)", paris).get(0).partition());
    }

    /** Where the clock goes back, both 02:00 hours of Paris are one folder, and the hours around it two others. */
    @Test
    void hoursAcrossTheClockGoingBack() {
        row(0, "2024-10-27T00:30:00Z", "INFO");
        row(1, "2024-10-27T01:30:00Z", "INFO");
        row(2, "2024-10-27T02:30:00Z", "INFO");
        row(3, "2024-10-27T03:30:00Z", "INFO");
        List<Out> out = partition("hour(ts)", ZoneId.of("Europe/Paris"));
        assertEquals(List.of(new Out("ts_hour=2024-10-27-02", List.of(0L, 1L), 8, false),
                new Out("ts_hour=2024-10-27-03", List.of(2L), 8, false),
                new Out("ts_hour=2024-10-27-04", List.of(3L), 8, false)), out);
    }

    /**
     * Copies of interleaved rows keep every value as it was, nulls at every level and lists of any
     * length included, and the line offset of each row.
     */
    @Test
    void gatheredRowsKeepTheirValuesNullsAndLineOffsets() {
        String[] levels = {"INFO", "WARN", "ERROR"};
        int rows = 40;
        long[] offsets = new long[rows];
        for (int r = 0; r < rows; r++) {
            row(r, r % 7 == 3 ? null : "2024-03-01T00:00:0" + (r % 10) + "Z", levels[(r * 7) % 3]);
            offsets[r] = 1000L + 37L * r;
        }
        ListVector tags = (ListVector) root.getVector("tags");
        StructVector user = (StructVector) root.getVector("user");
        MapVector attrs = (MapVector) root.getVector("attrs");
        StructVector entries = (StructVector) attrs.getDataVector();
        VarCharVector keys = (VarCharVector) entries.getChildByOrdinal(0);
        BigIntVector values = (BigIntVector) entries.getChildByOrdinal(1);
        tags.clear();
        tags.allocateNew();
        for (int r = 0; r < rows; r++) {
            if (r % 5 == 4) {
                tags.setNull(r);
                continue;
            }
            int first = tags.startNewValue(r);
            for (int e = 0; e < r % 4; e++) {
                ((VarCharVector) tags.getDataVector()).setSafe(first + e, ("t" + r + "." + e).getBytes(StandardCharsets.UTF_8));
            }
            tags.endValue(r, r % 4);
        }
        tags.setValueCount(rows);
        for (int r = 0; r < rows; r++) {
            if (r % 6 == 1) {
                user.setNull(r);
            } else if (r % 6 == 2) {
                ((VarCharVector) user.getChild("name")).setNull(r);
            }
            if (r % 3 == 0) {
                int first = attrs.startNewValue(r);
                for (int e = 0; e < r % 2 + 1; e++) {
                    entries.setIndexDefined(first + e);
                    keys.setSafe(first + e, ("k" + e).getBytes(StandardCharsets.UTF_8));
                    values.setSafe(first + e, r * 10L + e);
                }
                attrs.endValue(r, r % 2 + 1);
            } else {
                attrs.setNull(r);
            }
        }
        attrs.setValueCount(rows);
        root.setRowCount(rows);

        PartitionSpec spec = PartitionSpec.parse("level", SCHEMA.rowType(), ZoneOffset.UTC);
        List<Long> seen = new ArrayList<>();
        new BatchPartitioner(spec).partition(new ArrowBatch(root, "in", 1000, 9000, offsets), batch -> {
            VectorSchemaRoot part = batch.root();
            for (int i = 0; i < batch.rowCount(); i++) {
                int n = (int) ((BigIntVector) part.getVector("n")).get(i);
                seen.add((long) n);
                assertEquals(offsets[n], batch.rowOffset(i), "the line offset of row " + n);
                for (String column : new String[] {"ts", "local_ts", "d", "n", "tags", "attrs", "user"}) {
                    assertEquals(String.valueOf(root.getVector(column).getObject(n)),
                            String.valueOf(part.getVector(column).getObject(i)), column + " of row " + n);
                }
            }
        });
        assertEquals(rows, seen.size());
        assertEquals(rows, seen.stream().distinct().count());
    }

    @Test
    void theVectorsOfSlicesAndCopiesAreReleased() {
        row(0, "2024-03-01T00:00:00Z", "INFO");
        row(1, "2024-03-02T00:00:00Z", "WARN");
        row(2, "2024-03-01T00:00:00Z", "INFO");
        long before = allocator.getAllocatedMemory();
        partition("level", ZoneOffset.UTC);
        partition("day(ts)", ZoneOffset.UTC);
        assertEquals(before, allocator.getAllocatedMemory());
    }

    @Test
    void anEmptyBatchGivesNothing() {
        root.setRowCount(0);
        assertTrue(partition("day(ts)", ZoneOffset.UTC).isEmpty());
    }

    @Test
    void hivePathsEscapeAsHive() {
        assertEquals("k=a%2Fb%3Dc", HivePaths.folder("k", "a/b=c"));
        assertEquals("k=%25%3A%3F%23%5B%5D%5C%22%27%2A%5E%7B%01", HivePaths.folder("k", "%:?#[]\\\"'*^{\u0001"));
        assertEquals("k=é ü+x", HivePaths.folder("k", "é ü+x"));
        assertEquals("a%3Db=__HIVE_DEFAULT_PARTITION__", HivePaths.folder("a=b", null));
    }
}
