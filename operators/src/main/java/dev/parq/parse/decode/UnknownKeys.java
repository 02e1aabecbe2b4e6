package dev.parq.parse.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts keys that are not in the schema, and with a {@link UnknownValues} column keeps their
 * values. Occurrences are held back until their line is accepted, so a rejected line leaves no
 * count and no value behind.
 */
public final class UnknownKeys {

    /** One unknown key path: how often it occurred and where first. */
    public static final class Counter {
        final String path;
        final byte[] pathBytes;
        long count;
        String firstFile;
        long firstOffset;
        /** While a line's values are written: the index of its last pending occurrence. */
        int lastPending;

        Counter(String path) {
            this.path = path;
            this.pathBytes = path.getBytes(StandardCharsets.UTF_8);
        }

        public String path() {
            return path;
        }

        public long count() {
            return count;
        }

        public String firstFile() {
            return firstFile;
        }

        public long firstOffset() {
            return firstOffset;
        }
    }

    private final Map<String, Counter> counters = new HashMap<>();
    private final UnknownValues values;
    private final List<Counter> pending = new ArrayList<>();
    /**
     * Per pending occurrence, where its value's JSON text lies: in the line's bytes, which stay as
     * they are until the line is accepted or discarded. Null bytes for an occurrence counted only.
     */
    private byte[][] valueBytes = new byte[16][];
    private int[] valueFrom = new int[16];
    private int[] valueTo = new int[16];

    /** Counting only. */
    public UnknownKeys() {
        this(null);
    }

    /** Writing each accepted line's values into {@code values} too, when it is not null. */
    public UnknownKeys(UnknownValues values) {
        this.values = values;
    }

    /** Whether the values of keys outside arrays and maps are kept, not only counted. */
    boolean keepsValues() {
        return values != null;
    }

    Counter counter(String path) {
        return counters.computeIfAbsent(path, Counter::new);
    }

    void occurred(Counter counter) {
        occurred(counter, null, 0, 0);
    }

    /** An occurrence whose value is bytes[from, to), kept if the line is accepted. */
    void occurred(Counter counter, byte[] bytes, int from, int to) {
        int i = pending.size();
        if (i == valueBytes.length) {
            valueBytes = Arrays.copyOf(valueBytes, 2 * i);
            valueFrom = Arrays.copyOf(valueFrom, 2 * i);
            valueTo = Arrays.copyOf(valueTo, 2 * i);
        }
        pending.add(counter);
        valueBytes[i] = bytes;
        valueFrom[i] = from;
        valueTo[i] = to;
    }

    /**
     * Counts the held-back occurrences of the accepted line at file/offset, and writes its values
     * into row {@code row} of the values column, if there is one.
     */
    public void commit(String file, long offset, int row) {
        if (values != null) {
            writeValues(row);
        }
        for (int i = 0; i < pending.size(); i++) {
            Counter c = pending.get(i);
            if (c.count++ == 0) {
                c.firstFile = file;
                c.firstOffset = offset;
            }
        }
        discard();
    }

    /**
     * One entry per kept path; of a key repeated in one object, the last value, as for the
     * schema's own fields. A counter stands for one path, so a repeat is the same counter again.
     */
    private void writeValues(int row) {
        for (int i = 0; i < pending.size(); i++) {
            pending.get(i).lastPending = i;
        }
        values.startRow(row);
        for (int i = 0; i < pending.size(); i++) {
            Counter c = pending.get(i);
            if (valueBytes[i] != null && c.lastPending == i) {
                values.add(c.pathBytes, valueBytes[i], valueFrom[i], valueTo[i]);
            }
        }
        values.endRow(row);
    }

    public void discard() {
        Arrays.fill(valueBytes, 0, pending.size(), null);
        pending.clear();
    }

    /** Every path seen in an accepted line. */
    public List<Counter> seen() {
        List<Counter> seen = new ArrayList<>();
        for (Counter c : counters.values()) {
            if (c.count > 0) {
                seen.add(c);
            }
        }
        return seen;
    }
}
