package dev.parq.parse.decode;

import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * The column of the keys not in the schema, {@code MAP<STRING, STRING>}: per row, each key's path to
 * its value's JSON text as the line has it. Every accepted row gets a map, empty when its line
 * has no such key; a rejected line's row is written over by the next one.
 */
public final class UnknownValues {

    private final MapVector vector;
    private final StructVector entries;
    private final StringDecoder paths;
    private final StringDecoder texts;
    private int first;
    private int count;

    public UnknownValues(MapVector vector) {
        this.vector = vector;
        this.entries = (StructVector) vector.getDataVector();
        this.paths = new StringDecoder((VarCharVector) entries.getChildrenFromFields().get(0));
        this.texts = new StringDecoder((VarCharVector) entries.getChildrenFromFields().get(1));
    }

    void startRow(int row) {
        first = vector.startNewValue(row);
        count = 0;
    }

    /** An entry of the row started: path, and the value's text bytes[from, to). */
    void add(byte[] path, byte[] bytes, int from, int to) {
        int entry = first + count;
        entries.setIndexDefined(entry);
        paths.store(entry, path, 0, path.length);
        texts.store(entry, bytes, from, to - from);
        count++;
    }

    void endRow(int row) {
        vector.endValue(row, count);
    }

    /** As {@link Decoder#finish}: the batch has {@code rows} rows. */
    public void finish(int rows) {
        vector.setLastSet(rows - 1);
        int entryCount = rows == 0 ? 0 : vector.getOffsetBuffer().getInt((long) rows * MapVector.OFFSET_WIDTH);
        paths.finish(entryCount);
        texts.finish(entryCount);
    }
}
