package dev.parq.parse.decode;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import dev.parq.json.ByteScan;
import dev.parq.json.JsonStrings;
import dev.parq.json.Tape;

/**
 * MAP&lt;STRING, V&gt;: a JSON object, one entry per key in input order. For a repeated key the last
 * one wins, as for ROW fields.
 */
public final class MapDecoder extends Decoder {

    /** Up to this many entries, repeated keys are found by comparing every pair. */
    private static final int QUADRATIC_DEDUP_LIMIT = 32;

    private final MapVector vector;
    private final StructVector entries;
    private final StringDecoder keyDecoder;
    private final Decoder valueDecoder;
    private final String typeName;
    private final String path;
    private final Keys keys = new Keys();
    /** Where the keys of the object being decoded inline start and end in its line. */
    private final int[] keyStarts = new int[QUADRATIC_DEDUP_LIMIT];
    private final int[] keyEnds = new int[QUADRATIC_DEDUP_LIMIT];

    public MapDecoder(MapVector vector, StringDecoder keyDecoder, Decoder valueDecoder, String typeName,
            String path) {
        this.vector = vector;
        this.entries = (StructVector) vector.getDataVector();
        this.keyDecoder = keyDecoder;
        this.valueDecoder = valueDecoder;
        this.typeName = typeName;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.OBJECT) {
            throw FieldPath.mismatch(path, typeName, tape, t);
        }
        int first = vector.startNewValue(index);
        int n = 0;
        int end = tape.next(t);
        Map<String, Integer> lastOccurrence = entryCount(tape, t) > QUADRATIC_DEDUP_LIMIT ? lastOccurrence(tape, t) : null;
        for (int k = t + 1; k < end; ) {
            int v = k + 1;
            int next = tape.next(v);
            boolean repeated = lastOccurrence == null
                    ? repeatedLater(tape, k, next, end)
                    : lastOccurrence.get(JsonStrings.text(tape, k)) != k;
            if (!repeated) {
                int entry = first + n;
                entries.setIndexDefined(entry);
                keyDecoder.decode(tape, k, entry);
                if (tape.kind(v) == Tape.NULL) {
                    valueDecoder.writeNull(entry);
                } else {
                    valueDecoder.decode(tape, v, entry);
                }
                n++;
            }
            k = next;
        }
        vector.endValue(index, n);
    }

    /**
     * Takes objects of up to {@link #QUADRATIC_DEDUP_LIMIT} entries whose keys have no escapes and
     * no repeats; for a repeated key, which entry stays is for the tape path to decide.
     */
    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '{') {
            return FALLBACK;
        }
        int first = vector.startNewValue(index);
        int n = 0;
        p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        if (p < limit && bytes[p] == '}') {
            vector.endValue(index, 0);
            return p + 1;
        }
        while (true) {
            if (n == QUADRATIC_DEDUP_LIMIT || p >= limit || bytes[p] != '"') {
                return FALLBACK;
            }
            int entry = first + n;
            int keyEnd = keyDecoder.decodeInline(bytes, p, limit, entry);
            if (keyEnd < 0 || isEscapedOrRepeated(bytes, p + 1, keyEnd - 1, n)) {
                return FALLBACK;
            }
            keyStarts[n] = p + 1;
            keyEnds[n] = keyEnd - 1;
            entries.setIndexDefined(entry);
            p = ByteScan.whitespaceEnd(bytes, keyEnd, limit);
            if (p >= limit || bytes[p] != ':') {
                return FALLBACK;
            }
            p = Inline.value(valueDecoder, bytes, ByteScan.whitespaceEnd(bytes, p + 1, limit), limit, entry);
            if (p < 0) {
                return FALLBACK;
            }
            n++;
            p = Inline.separator(bytes, p, limit, (byte) '}');
            if (p < 0) {
                return FALLBACK;
            }
            if (bytes[p] == '}') {
                vector.endValue(index, n);
                return p + 1;
            }
            p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        }
    }

    /** Whether key bytes[from, to) holds an escape or equals one of the first n keys. */
    private boolean isEscapedOrRepeated(byte[] bytes, int from, int to, int n) {
        if (ByteScan.indexOfBackslash(bytes, from, to) < to) {
            return true;
        }
        for (int i = 0; i < n; i++) {
            if (Arrays.equals(bytes, from, to, bytes, keyStarts[i], keyEnds[i])) {
                return true;
            }
        }
        return false;
    }

    private static int entryCount(Tape tape, int t) {
        int count = 0;
        for (int k = t + 1; k < tape.next(t) && count <= QUADRATIC_DEDUP_LIMIT; k = tape.next(k + 1)) {
            count++;
        }
        return count;
    }

    private static Map<String, Integer> lastOccurrence(Tape tape, int t) {
        Map<String, Integer> last = new HashMap<>();
        for (int k = t + 1; k < tape.next(t); k = tape.next(k + 1)) {
            last.put(JsonStrings.text(tape, k), k);
        }
        return last;
    }

    private boolean repeatedLater(Tape tape, int k, int from, int end) {
        for (int other = from; other < end; other = tape.next(other + 1)) {
            if (keys.same(tape, k, other)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void writeNull(int index) {
        vector.setNull(index);
    }

    @Override
    public void finish(int count) {
        vector.setLastSet(count - 1);
        int entryCount = count == 0 ? 0 : vector.getOffsetBuffer().getInt((long) count * MapVector.OFFSET_WIDTH);
        keyDecoder.finish(entryCount);
        valueDecoder.finish(entryCount);
    }
}
