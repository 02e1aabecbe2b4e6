package dev.parq.sink.partition;

import java.io.Serializable;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The partitions one sink writer has a part file open for, least recently written first, and those
 * past {@code maxOpen} whose file is to end. The bucket assigner sees every batch and the rolling
 * policy every end of a file, so both hold this one instance (the file sink is deserialized, with
 * the objects it shares, once per task); all calls come from the task's thread.
 */
final class OpenPartitions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int maxOpen;
    private transient LinkedHashMap<String, Boolean> open;
    private transient Set<String> evicted;

    OpenPartitions(int maxOpen) {
        this.maxOpen = maxOpen;
    }

    /** A batch is written to {@code bucket}: it is the most recent, and another may have to close. */
    void written(String bucket) {
        if (open == null) {
            open = new LinkedHashMap<>(16, 0.75f, true);
            evicted = new HashSet<>();
        }
        open.put(bucket, Boolean.TRUE);
        evicted.remove(bucket);
        if (open.size() > maxOpen) {
            Iterator<Map.Entry<String, Boolean>> eldest = open.entrySet().iterator();
            evicted.add(eldest.next().getKey());
            eldest.remove();
        }
    }

    /** Whether {@code bucket}'s part file is to end now, past the cap; it then counts as closed. */
    boolean takeEvicted(String bucket) {
        return evicted != null && evicted.remove(bucket);
    }

    /** {@code bucket}'s part file has ended for another reason (a checkpoint): it is no longer open. */
    void closed(String bucket) {
        if (open != null) {
            open.remove(bucket);
            evicted.remove(bucket);
        }
    }

    /** Partitions with a part file open and not to be closed. */
    int openCount() {
        return open == null ? 0 : open.size();
    }
}
