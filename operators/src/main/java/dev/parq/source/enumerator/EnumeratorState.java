package dev.parq.source.enumerator;

import java.util.List;

import dev.parq.source.split.FileSplit;

/**
 * What the enumerator checkpoints: the splits not yet handed to a reader and, when it follows its
 * inputs, how far each file has been handed out, and the files that ended a short while ago; when
 * it follows objects, which of them it took ({@link ObjectsSeen}).
 */
public record EnumeratorState(List<FileSplit> pendingSplits, List<TrackedFile> trackedFiles,
        List<ReleasedFile> releasedFiles, ObjectsSeen objects) {

    public EnumeratorState {
        pendingSplits = List.copyOf(pendingSplits);
        trackedFiles = List.copyOf(trackedFiles);
        releasedFiles = List.copyOf(releasedFiles);
        objects = objects == null ? ObjectsSeen.NONE : objects;
    }

    public EnumeratorState(List<FileSplit> pendingSplits, List<TrackedFile> trackedFiles,
            List<ReleasedFile> releasedFiles) {
        this(pendingSplits, trackedFiles, releasedFiles, ObjectsSeen.NONE);
    }

    public EnumeratorState(List<FileSplit> pendingSplits) {
        this(pendingSplits, List.of(), List.of());
    }

    @Override
    public String toString() {
        return "EnumeratorState{" + pendingSplits.size() + " pending splits, " + trackedFiles.size()
                + " tracked files, " + releasedFiles.size() + " ended, " + objects.recent().size() + " recent objects}";
    }
}
