package dev.parq.sink;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.parq.batch.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.LocalOutputFile;

/** Writes test rows into a Parquet file in batches, the vectors refilled for each as the sink's are. */
final class TestFiles {

    /** Sets rows 0 to {@code count} of the reset vectors to the rows from {@code first} on. */
    interface BatchFill {
        void fill(VectorSchemaRoot root, int first, int count);
    }

    private TestFiles() {}

    /** Sets {@code row} of {@code vector} null, or to a value with {@code set}. */
    static void setOrNull(FieldVector vector, int row, boolean isNull, Runnable set) {
        if (isNull) {
            vector.setNull(row);
        } else {
            set.run();
        }
    }

    /** Sets {@code row} of {@code vector} to the UTF-8 bytes of {@code value}, or null. */
    static void setString(VarCharVector vector, int row, String value) {
        setOrNull(vector, row, value == null, () -> vector.setSafe(row, value.getBytes(StandardCharsets.UTF_8)));
    }

    static Path write(Path file, RowType rowType, ParquetWriterOptions options, int rows, int batch, BatchFill fill)
            throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(rowType), allocator);
                ArrowParquetWriter writer = new ArrowParquetWriter(new LocalOutputFile(file), rowType, options)) {
            root.allocateNew();
            for (int first = 0; first < rows; first += batch) {
                int count = Math.min(batch, rows - first);
                root.getFieldVectors().forEach(FieldVector::reset);
                fill.fill(root, first, count);
                root.setRowCount(count);
                writer.write(root);
            }
        }
        return file;
    }
}
