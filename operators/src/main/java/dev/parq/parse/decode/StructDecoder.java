package dev.parq.parse.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.complex.StructVector;

import dev.parq.parse.tape.ByteScan;
import dev.parq.parse.tape.Tape;

/**
 * ROW: a JSON object. Fields are matched by key bytes, trying the field after the last match
 * first since lines usually repeat one key order. For a repeated key the last one wins. Keys that
 * are not fields are skipped with their whole value and counted as unknown at their path.
 *
 * <p>Inline, the key at each position is first compared with the field that stood there in the
 * previous object, since lines of one source repeat their key order whatever the schema's order;
 * the key's bytes are compared in place, which checks them too. A repeated or unknown key leaves
 * the line to the tape path.
 *
 * <p>The top level of a line is a StructDecoder without a vector of its own.
 */
public final class StructDecoder implements Decoder {

    private static final int CACHED_UNKNOWN_KEYS = 64;

    private final StructVector vector;
    private final byte[][] names;
    private final long[] prefixes;
    private final long[] masks;
    private final Decoder[] fields;
    private final String path;
    private final UnknownKeys unknownKeys;
    private final int[] valueTokens;
    private final Keys keys = new Keys();
    private final List<byte[]> cachedKeys = new ArrayList<>();
    private final List<UnknownKeys.Counter> cachedCounters = new ArrayList<>();

    /** Whether a name can be compared with a key's raw bytes: nothing in it would be escaped. */
    private final boolean[] plainNames;
    /** The fields in the order of the keys of the last object decoded inline, and how many. */
    private final int[] keyOrder;
    private int keyCount;
    /** The object that last set each field, numbered, to tell a repeated key and a missing one. */
    private final long[] setBy;
    private long objects;

    public StructDecoder(StructVector vector, List<String> names, List<Decoder> fields, String path,
            UnknownKeys unknownKeys) {
        this.vector = vector;
        this.names = new byte[names.size()][];
        for (int i = 0; i < this.names.length; i++) {
            this.names[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
        }
        this.prefixes = new long[this.names.length];
        this.masks = new long[this.names.length];
        for (int i = 0; i < this.names.length; i++) {
            prefixes[i] = Keys.prefix(this.names[i]);
            masks[i] = Keys.prefixMask(this.names[i]);
        }
        this.fields = fields.toArray(new Decoder[0]);
        this.path = path;
        this.unknownKeys = unknownKeys;
        this.valueTokens = new int[this.names.length];
        this.plainNames = new boolean[this.names.length];
        for (int i = 0; i < this.names.length; i++) {
            plainNames[i] = isPlain(this.names[i]);
        }
        this.keyOrder = new int[this.names.length];
        this.setBy = new long[this.names.length];
    }

    private static boolean isPlain(byte[] name) {
        for (byte b : name) {
            if ((b >= 0 && b < 0x20) || b == '"' || b == '\\') {
                return false;
            }
        }
        return true;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.OBJECT) {
            throw FieldPath.mismatch(path, "ROW", tape, t);
        }
        if (vector != null) {
            vector.setIndexDefined(index);
        }
        int[] values = valueTokens;
        Arrays.fill(values, -1);
        int end = tape.next(t);
        int expected = 0;
        for (int k = t + 1; k < end; ) {
            int v = k + 1;
            int field = match(tape, k, expected);
            if (field >= 0) {
                values[field] = v;
                expected = field + 1;
            } else {
                unknown(tape, k);
            }
            k = tape.next(v);
        }
        for (int i = 0; i < fields.length; i++) {
            int v = values[i];
            if (v < 0 || tape.kind(v) == Tape.NULL) {
                fields[i].writeNull(index);
            } else {
                fields[i].decode(tape, v, index);
            }
        }
    }

    private int match(Tape tape, int k, int expected) {
        if (expected < names.length && keys.equals(tape, k, names[expected], prefixes[expected], masks[expected])) {
            return expected;
        }
        for (int i = 0; i < names.length; i++) {
            if (i != expected && keys.equals(tape, k, names[i], prefixes[i], masks[i])) {
                return i;
            }
        }
        return -1;
    }

    private void unknown(Tape tape, int k) {
        int n = keys.unescaped(tape, k);
        byte[] key = keys.scratch();
        for (int i = 0; i < cachedKeys.size(); i++) {
            if (Arrays.equals(cachedKeys.get(i), 0, cachedKeys.get(i).length, key, 0, n)) {
                unknownKeys.occurred(cachedCounters.get(i));
                return;
            }
        }
        UnknownKeys.Counter counter =
                unknownKeys.counter(FieldPath.child(path, new String(key, 0, n, StandardCharsets.UTF_8)));
        if (cachedKeys.size() < CACHED_UNKNOWN_KEYS) {
            cachedKeys.add(Arrays.copyOf(key, n));
            cachedCounters.add(counter);
        }
        unknownKeys.occurred(counter);
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '{') {
            return FALLBACK;
        }
        if (vector != null) {
            vector.setIndexDefined(index);
        }
        long object = ++objects;
        int count = 0;
        p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        if (p < limit && bytes[p] == '}') {
            p++;
        } else {
            while (true) {
                if (p >= limit || bytes[p] != '"') {
                    return FALLBACK;
                }
                int field = inlineMatch(bytes, p + 1, limit, count < keyCount ? keyOrder[count] : -1);
                if (field < 0 || setBy[field] == object) {
                    return FALLBACK;
                }
                setBy[field] = object;
                keyOrder[count++] = field;
                p += names[field].length + 2;
                if (p >= limit || bytes[p] != ':') {
                    p = ByteScan.whitespaceEnd(bytes, p, limit);
                    if (p >= limit || bytes[p] != ':') {
                        return FALLBACK;
                    }
                }
                p = Inline.value(fields[field], bytes, ByteScan.whitespaceEnd(bytes, p + 1, limit), limit, index);
                if (p < 0) {
                    return FALLBACK;
                }
                p = ByteScan.whitespaceEnd(bytes, p, limit);
                if (p >= limit) {
                    return FALLBACK;
                }
                if (bytes[p] == '}') {
                    p++;
                    break;
                }
                if (bytes[p] != ',') {
                    return FALLBACK;
                }
                p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
            }
        }
        keyCount = count;
        if (count < fields.length) {
            for (int i = 0; i < fields.length; i++) {
                if (setBy[i] != object) {
                    fields[i].writeNull(index);
                }
            }
        }
        return p;
    }

    /** The field whose name is the key starting at bytes[from], trying predicted first; or -1. */
    private int inlineMatch(byte[] bytes, int from, int limit, int predicted) {
        if (predicted >= 0 && keyIs(bytes, from, limit, predicted)) {
            return predicted;
        }
        for (int i = 0; i < names.length; i++) {
            if (i != predicted && keyIs(bytes, from, limit, i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the key whose content starts at bytes[from] is exactly name i, unescaped: its bytes
     * and then the closing quote. Names that hold a byte JSON must escape never match here.
     */
    private boolean keyIs(byte[] bytes, int from, int limit, int i) {
        byte[] name = names[i];
        int n = name.length;
        if (from + n >= limit || bytes[from + n] != '"' || !plainNames[i]) {
            return false;
        }
        return Keys.startsWith(bytes, from, limit, name, prefixes[i], masks[i]);
    }

    @Override
    public void writeNull(int index) {
        if (vector != null) {
            vector.setNull(index);
        }
        for (Decoder field : fields) {
            field.writeNull(index);
        }
    }

    @Override
    public void finish(int count) {
        for (Decoder field : fields) {
            field.finish(count);
        }
    }
}
