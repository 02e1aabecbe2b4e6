package dev.parq.sink.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.checkpoint.CheckpointType;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.checkpoint.SnapshotType;
import org.apache.flink.runtime.state.CheckpointStorageLocationReference;
import org.junit.jupiter.api.Test;

/** Which barriers compact everything: the few after a savepoint that is not a stop, the first after a backlog. */
class CompactEverythingTest {

    @Test
    void theBarriersAfterAPlainSavepointCompactEverything() {
        assertEquals(List.of(false, true, true, true, false), barriers(SavepointType.savepoint(SavepointFormatType.CANONICAL)));
    }

    @Test
    void aStopOrACheckpointAnnouncesNothing() {
        assertEquals(List.of(false, false, false, false, false), barriers(SavepointType.suspend(SavepointFormatType.CANONICAL)));
        assertEquals(List.of(false, false, false, false, false), barriers(CheckpointType.CHECKPOINT));
    }

    @Test
    void aSecondSavepointCountsItsBarriersAfresh() {
        CompactEverything compact = new CompactEverything();
        compact.snapshotting(options(SavepointType.savepoint(SavepointFormatType.CANONICAL)));
        compact.atBarrier();
        compact.atBarrier();
        compact.snapshotting(options(SavepointType.savepoint(SavepointFormatType.NATIVE)));
        assertEquals(List.of(true, true, true, false),
                List.of(compact.atBarrier(), compact.atBarrier(), compact.atBarrier(), compact.atBarrier()));
    }

    @Test
    void theFirstBarrierAfterABacklogCompactsEverything() {
        CompactEverything compact = new CompactEverything();
        compact.backlog(true);
        assertEquals(List.of(false, false), List.of(compact.atBarrier(), compact.atBarrier()), "while it lasts");
        compact.backlog(false);
        assertEquals(List.of(true, false), List.of(compact.atBarrier(), compact.atBarrier()));
    }

    @Test
    void noBacklogOrOneStillReadEndsNothing() {
        CompactEverything compact = new CompactEverything();
        compact.backlog(false);
        compact.backlog(false);
        assertEquals(false, compact.atBarrier(), "steady records, never a backlog");
        compact.backlog(true);
        compact.backlog(true);
        assertEquals(false, compact.atBarrier(), "a backlog still read");
    }

    @Test
    void aBacklogEndingJustAfterASavepointLeavesItsBarriersAsTheyAre() {
        CompactEverything compact = new CompactEverything();
        compact.backlog(true);
        compact.snapshotting(options(SavepointType.savepoint(SavepointFormatType.CANONICAL)));
        compact.backlog(false);
        assertEquals(List.of(true, true, true, false),
                List.of(compact.atBarrier(), compact.atBarrier(), compact.atBarrier(), compact.atBarrier()));
    }

    /** Whether each of a barrier, a snapshot of {@code type}, then four barriers compacts everything. */
    private static List<Boolean> barriers(SnapshotType type) {
        CompactEverything compact = new CompactEverything();
        List<Boolean> compactAll = new ArrayList<>();
        compactAll.add(compact.atBarrier());
        compact.snapshotting(options(type));
        for (int barrier = 0; barrier < CompactEverything.BARRIERS_AFTER_SAVEPOINT + 1; barrier++) {
            compactAll.add(compact.atBarrier());
        }
        return compactAll;
    }

    private static CheckpointOptions options(SnapshotType type) {
        return new CheckpointOptions(type, CheckpointStorageLocationReference.getDefault());
    }
}
