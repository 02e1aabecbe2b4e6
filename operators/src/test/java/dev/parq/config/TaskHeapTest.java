package dev.parq.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;

/** The budgets are shares of the TaskManager's task heap, not of the whole JVM heap. */
class TaskHeapTest {

    private static final long JVM_HEAP = 1L << 30;

    @Test
    void aTaskManagersConfiguredTaskHeapIsTheBudgetsBase() {
        Configuration config = new Configuration().set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.parse("384mb"));
        assertEquals(384L << 20, TaskHeap.of(config, JVM_HEAP));
    }

    @Test
    void withoutABoundedTaskHeapTheJvmHeapIs() {
        assertEquals(JVM_HEAP, TaskHeap.of(new Configuration(), JVM_HEAP));
        Configuration unbounded = new Configuration().set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.MAX_VALUE);
        assertEquals(JVM_HEAP, TaskHeap.of(unbounded, JVM_HEAP));
        Configuration larger = new Configuration().set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.parse("4gb"));
        assertEquals(JVM_HEAP, TaskHeap.of(larger, JVM_HEAP));
    }
}
