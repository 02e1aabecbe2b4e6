package dev.parq.sink.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeepingCommitterTest {

    @TempDir
    Path dir;

    @Test
    void aFileInItsPlaceStaysAndTheRestIsCommitted() throws Exception {
        Path kept = Files.writeString(dir.resolve("compacted-part-0-0.parquet"), "rows of the first compaction");
        Request taken = new Request(new FileSinkCommittable("", pending(kept)));
        Request free = new Request(new FileSinkCommittable("", pending(dir.resolve("compacted-part-0-1.parquet"))));
        Request cleanup = new Request(new FileSinkCommittable("", flinkPath(dir.resolve(".part-0-0.parquet"))));
        List<Committer.CommitRequest<FileSinkCommittable>> committed = new ArrayList<>();
        try (KeepingCommitter committer = new KeepingCommitter(new Committer<>() {
            @Override
            public void commit(java.util.Collection<CommitRequest<FileSinkCommittable>> requests) {
                committed.addAll(requests);
            }

            @Override
            public void close() {}
        })) {
            committer.commit(List.of(taken, free, cleanup));
        }
        assertEquals(List.of(free, cleanup), committed);
        assertTrue(taken.alreadyCommitted);
        assertFalse(free.alreadyCommitted);
        assertEquals("rows of the first compaction", Files.readString(kept));
    }

    private static org.apache.flink.core.fs.Path flinkPath(Path file) {
        return new org.apache.flink.core.fs.Path(file.toUri());
    }

    private static InProgressFileWriter.PendingFileRecoverable pending(Path target) {
        return new InProgressFileWriter.PendingFileRecoverable() {
            @Override
            public org.apache.flink.core.fs.Path getPath() {
                return flinkPath(target);
            }

            @Override
            public long getSize() {
                return -1;
            }
        };
    }

    /** A commit request that remembers being told that its file is committed already. */
    private static final class Request implements Committer.CommitRequest<FileSinkCommittable> {
        private final FileSinkCommittable committable;
        boolean alreadyCommitted;

        Request(FileSinkCommittable committable) {
            this.committable = committable;
        }

        @Override
        public FileSinkCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void retryLater() {
            throw new AssertionError("retried");
        }

        @Override
        public void updateAndRetryLater(FileSinkCommittable committable) {
            throw new AssertionError("retried");
        }

        @Override
        public void signalAlreadyCommitted() {
            alreadyCommitted = true;
        }
    }
}
