package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import dev.parq.batch.ArrowSchemas;
import dev.parq.testing.DuckDb;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncodingChoiceTest {

    private static final int ROWS = 30_000;
    private static final int BATCH = 8192;

    @TempDir
    Path dir;

    private Path writeAppLog(String name, ParquetWriterOptions options) throws Exception {
        Path file = dir.resolve(name);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(AppLogRows.ROW_TYPE), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), AppLogRows.ROW_TYPE,
                        options)) {
            root.allocateNew();
            for (int first = 0; first < ROWS; first += BATCH) {
                AppLogRows.fill(root, first, Math.min(BATCH, ROWS - first));
                writer.write(root);
            }
        }
        return file;
    }

    /** Each leaf column's path, as DuckDB spells it, to its encodings across all row groups. */
    private static Map<String, String> encodings(Path file) throws Exception {
        return DuckDb.pairs("SELECT path_in_schema, string_agg(DISTINCT encodings, ',' ORDER BY encodings)"
                + " FROM parquet_metadata(" + DuckDb.literal(file) + ") GROUP BY path_in_schema");
    }

    private static boolean dictionary(String encodings) {
        return encodings.contains("DICTIONARY");
    }

    @Test
    void dictionaryOnlyWhereFewValuesAreDistinct() throws Exception {
        Map<String, String> encodings = encodings(writeAppLog("app.parquet", ParquetWriterOptions.defaults()));

        // ts runs in sequence with neighbours sharing a millisecond; trace ids, messages and
        // error messages are unique; latencies and sizes nearly so.
        for (String many : new String[] {"ts", "trace_id", "message", "latency_ms", "bytes", "error, message"}) {
            assertFalse(dictionary(encodings.get(many)), many + " is written " + encodings.get(many));
        }
        // 20,000 users recur in random order: the sample of 8,192 rows is mostly distinct values,
        // but a row group holds over ten times more rows than there are users.
        for (String few : new String[] {"level", "service", "host", "status", "user, id", "user, name",
            "user, country", "tags, list, element", "error, type", "error, code"}) {
            assertTrue(dictionary(encodings.get(few)), few + " is written " + encodings.get(few));
        }
    }

    @Test
    void dictionaryOffTurnsItOffEverywhere() throws Exception {
        Map<String, String> encodings = encodings(
                writeAppLog("plain.parquet", ParquetWriterOptions.defaults().withDictionary(false)));

        encodings.forEach((column, used) -> assertFalse(dictionary(used), column + " is written " + used));
    }

    @Test
    void valuesReadBackTheSameWhateverTheEncoding() throws Exception {
        String chosen = DuckDb.literal(writeAppLog("chosen.parquet", ParquetWriterOptions.defaults()));
        String plain = DuckDb.literal(
                writeAppLog("plain.parquet", ParquetWriterOptions.defaults().withDictionary(false)));

        assertEquals(ROWS, DuckDb.scalarLong("SELECT count(*) FROM read_parquet(" + chosen + ")"));
        assertEquals(ROWS, DuckDb.scalarLong("SELECT count(DISTINCT trace_id) FROM read_parquet(" + chosen + ")"));
        long errors = DuckDb.scalarLong("SELECT count(error) FROM read_parquet(" + chosen + ")");
        assertTrue(errors > ROWS / 40 && errors < ROWS / 10, errors + " rows have an error");
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (SELECT * FROM read_parquet(" + chosen + ")"
                + " EXCEPT ALL SELECT * FROM read_parquet(" + plain + "))"));
        assertEquals(0, DuckDb.scalarLong("SELECT count(*) FROM (SELECT * FROM read_parquet(" + plain + ")"
                + " EXCEPT ALL SELECT * FROM read_parquet(" + chosen + "))"));
    }
}
