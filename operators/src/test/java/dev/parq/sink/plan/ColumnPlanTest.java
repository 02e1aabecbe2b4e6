package dev.parq.sink.plan;

import static dev.parq.sink.plan.WriterKind.DICTIONARY_PAGES;
import static dev.parq.sink.plan.WriterKind.PARQUET_MR;
import static dev.parq.sink.plan.WriterKind.PLAIN_PAGES;
import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.parq.batch.ArrowSchemas;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ParquetSchemas;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.page.LeafPath;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

/** Which writer each leaf gets, and where its vectors are, worked out without writing a file. */
class ColumnPlanTest {

    private static final RowType ROW_TYPE = TableSchema.parse("i INT, s STRING, f FLOAT, b BOOLEAN, t TINYINT,"
            + " d DECIMAL(10, 2), ts TIMESTAMP(6), r ROW<x BIGINT, tags ARRAY<STRING>>, a ARRAY<DATE>,"
            + " m MAP<STRING, INT>, rows ARRAY<ROW<y INT>>, nested ARRAY<ARRAY<INT>>").rowType();

    /** The leaves that are neither under ROWs only nor the elements of an ARRAY of primitives. */
    private static final Set<String> OUT_OF_REACH = Set.of("m.key_value.key", "m.key_value.value",
            "rows.list.element.y", "nested.list.element.list.element");

    private static ColumnPlan plan(RowType rowType, ParquetWriterOptions options) {
        return ColumnPlan.of(rowType, ParquetSchemas.toParquet(rowType), options);
    }

    private static String path(ColumnDescriptor column) {
        return String.join(".", column.getPath());
    }

    /** Each leaf's path, as Parquet spells it, to its writer, in the schema's order. */
    private static Map<String, WriterKind> writers(ColumnPlan plan) {
        Map<String, WriterKind> writers = new LinkedHashMap<>();
        for (int c = 0; c < plan.columnCount(); c++) {
            writers.put(path(plan.column(c)), plan.writer(c));
        }
        return writers;
    }

    private static Set<String> leaves(MessageType schema) {
        Set<String> leaves = new TreeSet<>();
        schema.getColumns().forEach(column -> leaves.add(path(column)));
        return leaves;
    }

    @Test
    void thePageWritersTakeTheLeavesTheyReachInTheTypesOfTheirEncoding() {
        Map<String, WriterKind> expected = new LinkedHashMap<>(Map.ofEntries(
                entry("i", DICTIONARY_PAGES),
                entry("s", DICTIONARY_PAGES),
                // parq keeps no dictionary of floating-point values; parquet-mr does.
                entry("f", PARQUET_MR),
                // Booleans never get a dictionary.
                entry("b", PLAIN_PAGES),
                // Small integers and decimals are converted value by value.
                entry("t", PARQUET_MR),
                entry("d", PARQUET_MR),
                entry("ts", DICTIONARY_PAGES),
                entry("r.x", DICTIONARY_PAGES),
                entry("r.tags.list.element", DICTIONARY_PAGES),
                entry("a.list.element", DICTIONARY_PAGES)));
        OUT_OF_REACH.forEach(leaf -> expected.put(leaf, PARQUET_MR));

        ColumnPlan plan = plan(ROW_TYPE, ParquetWriterOptions.defaults());

        assertEquals(expected, writers(plan));
        assertFalse(plan.dictionary(3), "b has no dictionary");
        assertTrue(plan.dictionary(2), "parquet-mr may encode f with a dictionary");
    }

    @Test
    void withoutDictionariesEveryLeafOfAPlainTypeInReachGetsPlainPages() {
        ColumnPlan plan = plan(ROW_TYPE, ParquetWriterOptions.defaults().withDictionary(false));

        Map<String, WriterKind> writers = writers(plan);
        for (String leaf : List.of("i", "s", "f", "b", "ts", "r.x", "r.tags.list.element", "a.list.element")) {
            assertEquals(PLAIN_PAGES, writers.get(leaf), leaf);
        }
        for (String leaf : List.of("t", "d")) {
            assertEquals(PARQUET_MR, writers.get(leaf), leaf);
        }
        OUT_OF_REACH.forEach(leaf -> assertEquals(PARQUET_MR, writers.get(leaf), leaf));
        for (int c = 0; c < plan.columnCount(); c++) {
            assertFalse(plan.dictionary(c), path(plan.column(c)));
            assertFalse(plan.properties().isDictionaryEnabled(plan.column(c)), path(plan.column(c)));
        }
    }

    @Test
    void parquetMrIsGivenOnlyTheLeavesItWrites() {
        ColumnPlan plan = plan(ROW_TYPE, ParquetWriterOptions.defaults());
        Set<String> parquetMr = new TreeSet<>();
        writers(plan).forEach((leaf, writer) -> {
            if (writer == PARQUET_MR) {
                parquetMr.add(leaf);
            }
        });

        assertEquals(parquetMr, leaves(plan.parquetMrSchema()));
        assertNull(plan(TableSchema.parse("i INT, r ROW<s STRING>").rowType(), ParquetWriterOptions.defaults())
                .parquetMrSchema(), "every leaf has its pages built directly");
    }

    @Test
    void eachLeafInReachHasAPathWithTheLevelsOfItsColumn() {
        ColumnPlan plan = plan(ROW_TYPE, ParquetWriterOptions.defaults());
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(ROW_TYPE), allocator)) {
            LeafPath[] paths = plan.leafPaths(root.getFieldVectors());

            for (int c = 0; c < plan.columnCount(); c++) {
                ColumnDescriptor column = plan.column(c);
                String leaf = path(column);
                assertEquals(OUT_OF_REACH.contains(leaf), paths[c] == null, leaf);
                if (paths[c] != null) {
                    assertEquals(column.getMaxDefinitionLevel(), paths[c].maxDefinitionLevel(), leaf);
                    assertEquals(column.getMaxRepetitionLevel(), paths[c].maxRepetitionLevel(), leaf);
                }
            }
        }
    }

    @Test
    void theFirstRowsTakeTheDictionaryFromColumnsOfManyValues() {
        RowType rowType = TableSchema.parse("level STRING, trace BIGINT, ratio DOUBLE, latency DOUBLE").rowType();
        int rows = 10_000;
        String[] levels = {"INFO", "WARN", "ERROR", "DEBUG"};
        ColumnPlan plan = plan(rowType, ParquetWriterOptions.defaults());
        ColumnPlan chosen;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator)) {
            root.allocateNew();
            for (int row = 0; row < rows; row++) {
                ((VarCharVector) root.getVector(0)).setSafe(row, levels[row * 7 % 4].getBytes(StandardCharsets.UTF_8));
                ((BigIntVector) root.getVector(1)).setSafe(row, row * 0x9E3779B97F4A7C15L);
                ((Float8Vector) root.getVector(2)).setSafe(row, row % 8 * 0.5);
                ((Float8Vector) root.getVector(3)).setSafe(row, row * 0.37);
            }
            root.setRowCount(rows);
            chosen = plan.withDictionariesChosen(plan.stripers(root.getFieldVectors()), rows, 64L << 20);
        }

        assertEquals(List.of(DICTIONARY_PAGES, DICTIONARY_PAGES, PARQUET_MR, PARQUET_MR),
                new ArrayList<>(writers(plan).values()), "before the first rows, every column wants a dictionary");
        assertEquals(List.of(DICTIONARY_PAGES, PLAIN_PAGES, PARQUET_MR, PLAIN_PAGES),
                new ArrayList<>(writers(chosen).values()));
        assertEquals(List.of(true, false, true, false), List.of(chosen.dictionary(0), chosen.dictionary(1),
                chosen.dictionary(2), chosen.dictionary(3)));
    }
}
