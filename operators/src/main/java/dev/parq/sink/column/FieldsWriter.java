package dev.parq.sink.column;

import java.util.List;

import org.apache.parquet.io.api.RecordConsumer;

/**
 * The fields of a group, a top-level row or a ROW value: each non-null field is started, written
 * and ended; a null field is left out, which is how Parquet records a null.
 */
public final class FieldsWriter {

    private final String[] names;
    private final ArrowColumnWriter[] writers;

    public FieldsWriter(List<String> names, List<ArrowColumnWriter> writers) {
        this.names = names.toArray(new String[0]);
        this.writers = writers.toArray(new ArrowColumnWriter[0]);
    }

    public void write(RecordConsumer out, int row) {
        for (int i = 0; i < writers.length; i++) {
            if (!writers[i].isNull(row)) {
                out.startField(names[i], i);
                writers[i].write(out, row);
                out.endField(names[i], i);
            }
        }
    }
}
