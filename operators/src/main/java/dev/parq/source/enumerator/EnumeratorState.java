package dev.parq.source.enumerator;

import java.util.List;

import dev.parq.source.split.FileSplit;

/** What the enumerator checkpoints: the splits not yet handed to a reader. */
public final class EnumeratorState {

    private final List<FileSplit> pendingSplits;

    public EnumeratorState(List<FileSplit> pendingSplits) {
        this.pendingSplits = List.copyOf(pendingSplits);
    }

    public List<FileSplit> pendingSplits() {
        return pendingSplits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EnumeratorState && ((EnumeratorState) o).pendingSplits.equals(pendingSplits);
    }

    @Override
    public int hashCode() {
        return pendingSplits.hashCode();
    }

    @Override
    public String toString() {
        return "EnumeratorState{" + pendingSplits.size() + " pending splits}";
    }
}
