package dev.parq.parse.decode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;

import dev.parq.json.ByteScan;
import dev.parq.json.IsoDateTime;
import dev.parq.json.Tape;

/** DATE: an ISO-8601 calendar date string, "2024-01-31". */
public final class DateDecoder extends Decoder {

    private final DateDayVector vector;
    private final String path;
    private final IsoDateTime iso = new IsoDateTime();

    public DateDecoder(DateDayVector vector, String path) {
        this.vector = vector;
        this.path = path;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        if (tape.kind(t) != Tape.STRING) {
            throw FieldPath.mismatch(path, "DATE", tape, t);
        }
        if (!iso.load(tape, t) || !iso.parseDate()) {
            throw FieldPath.invalid(path, tape, t, "is not an ISO-8601 date (yyyy-mm-dd)");
        }
        MemoryUtil.putInt(Slots.fixed(vector, Integer.BYTES, index, true), (int) iso.epochDay);
    }

    /** Takes strings without escapes; any other value or problem is left to the tape path. */
    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        if (bytes[p] != '"') {
            return FALLBACK;
        }
        int end = ByteScan.plainEnd(bytes, p + 1, limit);
        if (end >= limit || bytes[end] != '"' || !iso.load(bytes, p + 1, end, false) || !iso.parseDate()) {
            return FALLBACK;
        }
        MemoryUtil.putInt(Slots.fixed(vector, Integer.BYTES, index, true), (int) iso.epochDay);
        return end + 1;
    }

    @Override
    public void writeNull(int index) {
        Slots.fixed(vector, Integer.BYTES, index, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        Slots.fixedNulls(vector, Integer.BYTES, from, to);
    }
}
