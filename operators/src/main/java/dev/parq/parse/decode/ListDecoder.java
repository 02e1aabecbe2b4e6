package dev.parq.parse.decode;

import org.apache.arrow.vector.complex.ListVector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/** ARRAY: a JSON array; its elements go to the child vector, a null element stays null. */
public final class ListDecoder extends Decoder {

    private final ListVector vector;
    private final Decoder element;
    private final String typeName;
    private final String path;

    public ListDecoder(ListVector vector, Decoder element, String typeName, String path) {
        this.vector = vector;
        this.element = element;
        this.typeName = typeName;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.ARRAY) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        int first = vector.startNewValue(index);
        int n = 0;
        int end = tape.next(t);
        for (int e = t + 1; e < end; e = tape.next(e)) {
            if (tape.kind(e) == Tape.NULL) {
                element.writeNull(first + n);
            } else {
                element.decode(tape, e, first + n);
            }
            n++;
        }
        vector.endValue(index, n);
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '[') {
            return FALLBACK;
        }
        int first = vector.startNewValue(index);
        int n = 0;
        p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        if (p < limit && bytes[p] == ']') {
            vector.endValue(index, 0);
            return p + 1;
        }
        while (true) {
            p = Inline.value(element, bytes, p, limit, first + n);
            if (p < 0) {
                return FALLBACK;
            }
            n++;
            p = Inline.separator(bytes, p, limit, (byte) ']');
            if (p < 0) {
                return FALLBACK;
            }
            if (bytes[p] == ']') {
                vector.endValue(index, n);
                return p + 1;
            }
            p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        }
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }

    @Override
    public void finish(int count) {
        vector.setLastSet(count - 1);
        element.finish(count == 0 ? 0 : vector.getOffsetBuffer().getInt((long) count * ListVector.OFFSET_WIDTH));
    }
}
