package dev.parq.sink;

import java.util.Locale;

/**
 * A Parquet writer ran out of heap: the line it was writing, and the setting that gives it more.
 * The writers size what they buffer to their share of the heap and to the line limit, so this
 * means the heap is shared with more than they know of (many slots, other jobs), or is smaller
 * than the line limit was worked out for.
 */
public final class OutOfHeapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;

    public OutOfHeapException(String file, long offset, OutOfMemoryError cause) {
        super(String.format(Locale.ROOT,
                "%s: ran out of heap (%s) while writing the line at byte %d to Parquet, with a heap of %d MiB;"
                        + " run it with a larger heap (./parq: PARQ_JAVA_OPTS=-Xmx1g; a Flink cluster:"
                        + " taskmanager.memory.task.heap.size), a smaller --row-group-size, or, with"
                        + " --partition-by, a smaller --max-open-partitions",
                file, cause.getMessage(), offset, Runtime.getRuntime().maxMemory() >> 20), cause);
        this.file = file;
        this.offset = offset;
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
