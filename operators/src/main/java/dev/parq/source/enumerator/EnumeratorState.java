package dev.parq.source.enumerator;

import java.util.List;

import dev.parq.source.split.FileSplit;

/**
 * What the enumerator checkpoints: the splits not yet handed to a reader and, when it follows its
 * inputs, how far each file has been handed out, and the files that ended a short while ago.
 */
public record EnumeratorState(List<FileSplit> pendingSplits, List<TrackedFile> trackedFiles,
        List<ReleasedFile> releasedFiles) {

    public EnumeratorState {
        pendingSplits = List.copyOf(pendingSplits);
        trackedFiles = List.copyOf(trackedFiles);
        releasedFiles = List.copyOf(releasedFiles);
    }

    public EnumeratorState(List<FileSplit> pendingSplits) {
        this(pendingSplits, List.of(), List.of());
    }

    @Override
    public String toString() {
        return "EnumeratorState{" + pendingSplits.size() + " pending splits, " + trackedFiles.size()
                + " tracked files, " + releasedFiles.size() + " ended}";
    }
}
