package dev.parq.source.enumerator;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import javax.annotation.Nullable;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import dev.parq.source.split.FileSplit;

/**
 * Hands out the planned splits one at a time to whichever reader asks, so that a fast reader takes
 * more of the work; tells each reader there is no more once the queue is empty (bounded input).
 */
public final class NdjsonSplitEnumerator implements SplitEnumerator<FileSplit, EnumeratorState> {

    private final SplitEnumeratorContext<FileSplit> context;
    private final Queue<FileSplit> pending;

    public NdjsonSplitEnumerator(SplitEnumeratorContext<FileSplit> context, List<FileSplit> splits) {
        this.context = context;
        this.pending = new ArrayDeque<>(splits);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        if (!context.registeredReaders().containsKey(subtaskId)) {
            return;
        }
        FileSplit next = pending.poll();
        if (next != null) {
            context.assignSplit(next, subtaskId);
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<FileSplit> splits, int subtaskId) {
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves when they are idle.
    }

    @Override
    public EnumeratorState snapshotState(long checkpointId) {
        return new EnumeratorState(new ArrayList<>(pending));
    }

    @Override
    public void close() throws IOException {}
}
