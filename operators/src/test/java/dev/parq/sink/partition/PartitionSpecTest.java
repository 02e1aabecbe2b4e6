package dev.parq.sink.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.util.List;

import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

import dev.parq.schema.TableSchema;

class PartitionSpecTest {

    private static final RowType ROWS = TableSchema.parse("ts TIMESTAMP_LTZ(3), d DATE, level STRING, n BIGINT,"
            + " x DOUBLE, tags ARRAY<STRING>, `my col` STRING, ts_hour STRING").rowType();

    private static PartitionSpec parse(String expressions) {
        return PartitionSpec.parse(expressions, ROWS, ZoneOffset.UTC);
    }

    private static String refused(String expressions) {
        return assertThrows(IllegalArgumentException.class, () -> parse(expressions)).getMessage();
    }

    @Test
    void levelsNestInTheOrderGivenAndValueColumnsLeaveTheFiles() {
        PartitionSpec spec = parse(" DAY(ts) , level,`my col`");
        assertEquals("day(ts),level,my col", spec.toString());
        assertEquals(List.of("ts_day", "level", "my col"),
                spec.levels().stream().map(PartitionSpec.Level::key).toList());
        assertEquals(List.of("ts", "d", "n", "x", "tags", "ts_hour"), spec.fileType().getFieldNames());
    }

    @Test
    void unknownColumnsAndWrongTypesAreRefusedByName() {
        assertTrue(refused("day(tz)").contains("'day(tz)' names no column"), refused("day(tz)"));
        assertTrue(refused("user.name").contains("top-level"));
        assertTrue(refused("day(n)").contains("column 'n' is BIGINT"), refused("day(n)"));
        assertTrue(refused("hour(d)").contains("has no hour"));
        assertTrue(refused("tags").contains("ARRAY<STRING>"), refused("tags"));
        assertTrue(refused("x").contains("DOUBLE"), refused("x"));
        assertTrue(refused("ts").contains("use day(ts) or hour(ts)"), refused("ts"));
    }

    @Test
    void aFolderTwiceOrAFolderNamedLikeAColumnIsRefused() {
        assertTrue(refused("level,level").contains("twice"));
        assertTrue(refused("hour(ts)").contains("ts_hour"), refused("hour(ts)"));
        assertTrue(refused("day(ts),").contains("empty expression"));
    }

    @Test
    void everyColumnAFolderLeavesTheFilesNone() {
        RowType one = TableSchema.parse("level STRING").rowType();
        assertThrows(IllegalArgumentException.class, () -> PartitionSpec.parse("level", one, ZoneOffset.UTC));
    }

    @Test
    void theCapOnOpenFilesClosesTheLeastRecentlyWritten() {
        OpenPartitions open = new OpenPartitions(2);
        open.written("a");
        open.written("b");
        open.written("a");
        open.written("c");
        assertEquals(2, open.openCount());
        assertTrue(open.takeEvicted("b"));
        assertFalse(open.takeEvicted("b"));
        assertFalse(open.takeEvicted("a"));
        open.written("d");
        assertEquals(2, open.openCount());
        open.closed("a");
        assertFalse(open.takeEvicted("a"), "a checkpoint closed it already");
        open.written("e");
        assertTrue(open.takeEvicted("c"));
    }
}
