package dev.parq.parse.decode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts keys that are not in the schema. Occurrences are held back until their line is accepted,
 * so a rejected line leaves no count behind.
 */
public final class UnknownKeys {

    /** One unknown key path: how often it occurred and where first. */
    public static final class Counter {
        final String path;
        long count;
        String firstFile;
        long firstOffset;

        Counter(String path) {
            this.path = path;
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
    private final List<Counter> pending = new ArrayList<>();

    Counter counter(String path) {
        return counters.computeIfAbsent(path, Counter::new);
    }

    void occurred(Counter counter) {
        pending.add(counter);
    }

    /** Counts the held-back occurrences of the accepted line at file/offset. */
    public void commit(String file, long offset) {
        for (int i = 0; i < pending.size(); i++) {
            Counter c = pending.get(i);
            if (c.count++ == 0) {
                c.firstFile = file;
                c.firstOffset = offset;
            }
        }
        pending.clear();
    }

    public void discard() {
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
