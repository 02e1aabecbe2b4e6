package dev.parq.source.enumerator;

import java.util.List;

import dev.parq.source.split.FileSplit;

/**
 * What the enumerator checkpoints: the splits not yet handed to a reader and, when it follows its
 * inputs, how far each file has been handed out.
 */
public record EnumeratorState(List<FileSplit> pendingSplits, List<TrackedFile> trackedFiles) {

    public EnumeratorState {
        pendingSplits = List.copyOf(pendingSplits);
        trackedFiles = List.copyOf(trackedFiles);
    }

    public EnumeratorState(List<FileSplit> pendingSplits) {
        this(pendingSplits, List.of());
    }

    @Override
    public String toString() {
        return "EnumeratorState{" + pendingSplits.size() + " pending splits, " + trackedFiles.size() + " tracked files}";
    }
}
