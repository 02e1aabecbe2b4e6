package dev.parq.config;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * The heap the tasks of this JVM may use, which parq's memory budgets (long lines, buffered row
 * groups) are shares of. On a TaskManager that is its configured task heap
 * ({@code taskmanager.memory.task.heap.size}): the JVM's heap also holds Flink's framework heap,
 * which is not the tasks' to spend. Where no task heap is configured (an embedded cluster, whose
 * task heap is unbounded) it is the JVM's maximum heap.
 */
public final class TaskHeap {

    /**
     * The longest line this JVM's heap takes, as a fraction of it: on its way to a Parquet page a
     * value is copied several times (the window, the page, its statistics, the compressed page),
     * and with the launcher's 256 MiB heap a line of 20 MiB converted while one of 30 MiB ran out
     * of heap.
     */
    public static final int HEAP_PER_LINE = 16;

    private static volatile long configured = Runtime.getRuntime().maxMemory();

    private TaskHeap() {}

    /**
     * Takes the task heap from the TaskManager's configuration; called by parq's first operator to
     * open in this JVM, before any budget is used.
     */
    public static void configure(ReadableConfig taskManagerConfig) {
        configured = of(taskManagerConfig, Runtime.getRuntime().maxMemory());
    }

    /** The task heap {@code config} gives a JVM of {@code maxHeap}: the configured one, if bounded, within that. */
    static long of(ReadableConfig config, long maxHeap) {
        MemorySize heap = config.getOptional(TaskManagerOptions.TASK_HEAP_MEMORY).orElse(null);
        if (heap == null || heap.getBytes() <= 0 || heap.getBytes() >= MemorySize.MAX_VALUE.getBytes()) {
            return maxHeap;
        }
        return Math.min(heap.getBytes(), maxHeap);
    }

    /** The task heap in bytes. */
    public static long bytes() {
        return configured;
    }

    /** The longest line, its line feed included, that this JVM's parsers and readers take by default. */
    public static long longestLine() {
        return Math.min(bytes() / HEAP_PER_LINE, Integer.MAX_VALUE - 16);
    }
}
