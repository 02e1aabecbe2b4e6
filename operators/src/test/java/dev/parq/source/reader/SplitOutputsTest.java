package dev.parq.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceSplitMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.junit.jupiter.api.Test;

import dev.parq.source.split.FileSplit;

/**
 * The metric groups Flink's source operator makes per split, handed to and let go of the way the
 * operator does it: a group per split, made on the split's arrival and closed when its output is
 * let go of.
 */
class SplitOutputsTest {

    private final InternalOperatorMetricGroup operatorGroup =
            UnregisteredMetricGroups.createUnregisteredOperatorMetricGroup();
    private final SplitOutputs outputs = new SplitOutputs(InternalSourceReaderMetricGroup.wrap(operatorGroup));
    private final Map<String, InternalSourceSplitMetricGroup> splitGroups = new HashMap<>();
    /** Lets go of a split's group as the source operator does when the reader lets go of its output. */
    private final TestingReaderOutput<Void> output = new TestingReaderOutput<>() {
        @Override
        public void releaseOutputForSplit(String splitId) {
            splitGroups.remove(splitId).onSplitFinished();
        }
    };

    private FileSplit arrived(int n) {
        FileSplit split = new FileSplit("app.log@" + n, "app.log", "(dev=1,ino=2)", n * 100L, n * 100L + 100);
        splitGroups.put(split.splitId(), InternalSourceSplitMetricGroup.wrap(operatorGroup, split.splitId(), () -> 0L));
        outputs.added(split);
        return split;
    }

    @Test
    void theGroupsOfSplitsLetGoOfAreGarbageOnceNoSplitIsHeld() throws InterruptedException {
        List<WeakReference<Object>> finishedGroups = new ArrayList<>();
        for (int n = 0; n < 1000; n++) {
            FileSplit split = arrived(n);
            finishedGroups.add(new WeakReference<>(splitGroups.get(split.splitId()).getSplitWatermarkMetricGroup()));
            outputs.finished(split);
            outputs.release(output);
        }
        assertEquals(0, stillReachable(finishedGroups), "groups of finished splits still held");
    }

    @Test
    void aSplitStillHeldKeepsItsMetricsAndTheFinishedOnesGoWhenItIsDone() throws InterruptedException {
        FileSplit held = arrived(0);
        AbstractMetricGroup<?> heldGroup = (AbstractMetricGroup<?>) splitGroups.get(held.splitId())
                .getSplitWatermarkMetricGroup();
        List<WeakReference<Object>> finishedGroups = new ArrayList<>();
        for (int n = 1; n <= 100; n++) {
            FileSplit split = arrived(n);
            finishedGroups.add(new WeakReference<>(splitGroups.get(split.splitId()).getSplitWatermarkMetricGroup()));
            outputs.finished(split);
            outputs.release(output);
        }
        assertFalse(heldGroup.isClosed(), "the metrics of a split being read were closed");
        outputs.finished(held);
        outputs.release(output);
        assertTrue(heldGroup.isClosed());
        assertEquals(0, stillReachable(finishedGroups), "groups of finished splits still held");
    }

    private static long stillReachable(List<WeakReference<Object>> references) throws InterruptedException {
        for (int attempt = 0; attempt < 10; attempt++) {
            System.gc();
            if (references.stream().allMatch(r -> r.get() == null)) {
                return 0;
            }
            Thread.sleep(50);
        }
        return references.stream().filter(r -> r.get() != null).count();
    }
}
