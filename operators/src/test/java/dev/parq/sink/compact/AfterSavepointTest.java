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

/** Which barriers compact everything: the few after a savepoint that is not a stop. */
class AfterSavepointTest {

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
        AfterSavepoint afterSavepoint = new AfterSavepoint();
        afterSavepoint.snapshotting(options(SavepointType.savepoint(SavepointFormatType.CANONICAL)));
        afterSavepoint.compactAllAtBarrier();
        afterSavepoint.compactAllAtBarrier();
        afterSavepoint.snapshotting(options(SavepointType.savepoint(SavepointFormatType.NATIVE)));
        assertEquals(List.of(true, true, true, false),
                List.of(afterSavepoint.compactAllAtBarrier(), afterSavepoint.compactAllAtBarrier(),
                        afterSavepoint.compactAllAtBarrier(), afterSavepoint.compactAllAtBarrier()));
    }

    /** Whether each of a barrier, a snapshot of {@code type}, then four barriers compacts everything. */
    private static List<Boolean> barriers(SnapshotType type) {
        AfterSavepoint afterSavepoint = new AfterSavepoint();
        List<Boolean> compactAll = new ArrayList<>();
        compactAll.add(afterSavepoint.compactAllAtBarrier());
        afterSavepoint.snapshotting(options(type));
        for (int barrier = 0; barrier < AfterSavepoint.BARRIERS + 1; barrier++) {
            compactAll.add(afterSavepoint.compactAllAtBarrier());
        }
        return compactAll;
    }

    private static CheckpointOptions options(SnapshotType type) {
        return new CheckpointOptions(type, CheckpointStorageLocationReference.getDefault());
    }
}
