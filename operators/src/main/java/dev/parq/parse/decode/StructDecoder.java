package dev.parq.parse.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.complex.StructVector;

import dev.parq.json.ByteScan;
import dev.parq.json.Tape;

/**
 * ROW: a JSON object. Fields are matched by key bytes, trying the field after the last match
 * first since lines usually repeat one key order. For a repeated key the last one wins. Keys that
 * are not fields are skipped with their whole value and counted as unknown at their path; an object
 * that {@code keepsValues} (the line, and ROWs within it outside arrays and maps, whose unknown
 * paths name one value of the line) hands the value's JSON text to {@link UnknownKeys} as well.
 *
 * <p>Inline, keys are matched in place by {@link InlineKeys}, which checks their bytes too; an
 * unknown key's value is checked and skipped, and a repeated key or one with escapes leaves the
 * line to the tape path. Fields an object lacks are found from a bit set, not by asking every
 * field.
 *
 * <p>The top level of a line is a StructDecoder without a vector of its own.
 */
public final class StructDecoder extends Decoder {

    private static final int CACHED_UNKNOWN_KEYS = 64;

    private final StructVector vector;
    private final byte[][] names;
    private final long[] prefixes;
    private final long[] masks;
    private final Decoder[] fields;
    private final String path;
    private final UnknownKeys unknownKeys;
    private final boolean keepsValues;
    private final int[] valueTokens;
    private final Keys keys = new Keys();
    private final List<byte[]> cachedKeys = new ArrayList<>();
    private final List<UnknownKeys.Counter> cachedCounters = new ArrayList<>();

    /** Rows [nullsFrom, nullsTo) are null, not yet written to the vectors. */
    private int nullsFrom;
    private int nullsTo;
    private final InlineKeys inlineKeys;
    /** The fields an object decoded inline has set so far, one bit each. */
    private final long[] set;

    public StructDecoder(StructVector vector, List<String> names, List<Decoder> fields, String path,
            UnknownKeys unknownKeys, boolean keepsValues) {
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
        this.keepsValues = keepsValues;
        this.valueTokens = new int[this.names.length];
        this.inlineKeys = new InlineKeys(this.names);
        this.set = new long[(this.names.length + Long.SIZE - 1) / Long.SIZE];
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.OBJECT) {
            throw FieldPath.mismatch(path, "ROW", tape, t);
        }
        if (vector != null) {
            writeHeldNulls();
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
        unknown(keys.scratch(), 0, n, tape.bytes(), tape.rawStart(k + 1), tape.rawEnd(k + 1));
    }

    /**
     * Counts the unknown key bytes[from, from + n), unescaped, at this object's path; its value is
     * line[valueFrom, valueTo).
     */
    private void unknown(byte[] bytes, int from, int n, byte[] line, int valueFrom, int valueTo) {
        UnknownKeys.Counter counter = counter(bytes, from, n);
        if (keepsValues) {
            unknownKeys.occurred(counter, line, valueFrom, valueTo);
        } else {
            unknownKeys.occurred(counter);
        }
    }

    private UnknownKeys.Counter counter(byte[] bytes, int from, int n) {
        for (int i = 0; i < cachedKeys.size(); i++) {
            if (Arrays.equals(cachedKeys.get(i), 0, cachedKeys.get(i).length, bytes, from, from + n)) {
                return cachedCounters.get(i);
            }
        }
        UnknownKeys.Counter counter =
                unknownKeys.counter(FieldPath.child(path, new String(bytes, from, n, StandardCharsets.UTF_8)));
        if (cachedKeys.size() < CACHED_UNKNOWN_KEYS) {
            cachedKeys.add(Arrays.copyOfRange(bytes, from, from + n));
            cachedCounters.add(counter);
        }
        return counter;
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '{') {
            return FALLBACK;
        }
        if (vector != null) {
            writeHeldNulls();
            vector.setIndexDefined(index);
        }
        Arrays.fill(set, 0);
        int count = 0;
        p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
        if (p < limit && bytes[p] == '}') {
            p++;
        } else {
            while (true) {
                if (p >= limit || bytes[p] != '"') {
                    return FALLBACK;
                }
                int valueStart = inlineKeys.match(bytes, p + 1, limit, count);
                if (valueStart >= 0) {
                    int field = inlineKeys.field();
                    long bit = 1L << field;
                    if ((set[field >>> 6] & bit) != 0) {
                        return FALLBACK;
                    }
                    set[field >>> 6] |= bit;
                    inlineKeys.record(count++, field);
                    p = Inline.value(fields[field], bytes, ByteScan.whitespaceEnd(bytes, valueStart, limit), limit, index);
                } else {
                    p = skipUnknown(bytes, p + 1, limit);
                }
                if (p >= 0) {
                    p = Inline.separator(bytes, p, limit, (byte) '}');
                }
                if (p < 0) {
                    return FALLBACK;
                }
                if (bytes[p] == '}') {
                    p++;
                    break;
                }
                p = ByteScan.whitespaceEnd(bytes, p + 1, limit);
            }
        }
        inlineKeys.endObject(count);
        if (count < fields.length) {
            writeNullsWhereUnset(index);
        }
        return p;
    }

    /**
     * Counts the key whose content starts at bytes[from], which names no field, and skips its
     * value; returns the index after the value, or FALLBACK for a key with escapes.
     */
    private int skipUnknown(byte[] bytes, int from, int limit) {
        int quote = ByteScan.plainEnd(bytes, from, limit);
        if (quote == limit || bytes[quote] != '"') {
            quote = ByteScan.stringEnd(bytes, quote, limit);
            if (quote < 0 || ByteScan.indexOfBackslash(bytes, from, quote) < quote) {
                return FALLBACK;
            }
        }
        int colon = ByteScan.whitespaceEnd(bytes, quote + 1, limit);
        if (colon == limit || bytes[colon] != ':') {
            return FALLBACK;
        }
        int valueStart = ByteScan.whitespaceEnd(bytes, colon + 1, limit);
        int end = ByteScan.valueEnd(bytes, valueStart, limit);
        if (end >= 0) {
            unknown(bytes, from, quote - from, bytes, valueStart, end);
        }
        return end;
    }

    private void writeNullsWhereUnset(int index) {
        for (int w = 0; w < set.length; w++) {
            long unset = ~set[w];
            while (unset != 0) {
                int field = w * Long.SIZE + Long.numberOfTrailingZeros(unset);
                if (field >= fields.length) {
                    break;
                }
                fields[field].writeNull(index);
                unset &= unset - 1;
            }
        }
    }

    /**
     * An absent or null ROW is the common case for optional objects (an error that most lines
     * lack), so its nulls are held back and written for a whole run of rows at once: before this
     * object's next value, or at {@link #finish}.
     */
    @Override
    public void writeNull(int index) {
        if (index != nullsTo) {
            writeHeldNulls();
            nullsFrom = index;
        }
        nullsTo = index + 1;
    }

    @Override
    public void writeNulls(int from, int to) {
        if (from != nullsTo) {
            writeHeldNulls();
            nullsFrom = from;
        }
        nullsTo = to;
    }

    private void writeHeldNulls() {
        if (nullsFrom < nullsTo) {
            vector.setNull(nullsTo - 1);
            Slots.clearValidity(vector.getValidityBuffer(), nullsFrom, nullsTo);
            for (Decoder field : fields) {
                field.writeNulls(nullsFrom, nullsTo);
            }
        }
        nullsFrom = nullsTo;
    }

    @Override
    public void finish(int count) {
        if (vector != null) {
            writeHeldNulls();
        }
        for (Decoder field : fields) {
            field.finish(count);
        }
    }
}
