package dev.parq.source.reader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.connector.source.ReaderOutput;

import dev.parq.source.split.FileSplit;

/**
 * The splits whose outputs Flink holds for the reader: it makes an output and a metric group for
 * each split id a reader is given and keeps them until the reader lets go of that id, once. Two
 * splits may share an id (a file read again from its start after a truncation, a split given back
 * after a failure), so an id is let go of when the last split under it is done.
 */
final class SplitOutputs {

    private final Map<String, Integer> live = new HashMap<>();
    private final List<String> done = new ArrayList<>();

    void added(FileSplit split) {
        live.merge(split.splitId(), 1, Integer::sum);
    }

    /** The reader is done with {@code split}: read, or passed over. */
    void finished(FileSplit split) {
        String id = split.splitId();
        Integer left = live.get(id);
        if (left == null) {
            return;
        }
        if (left > 1) {
            live.put(id, left - 1);
        } else {
            live.remove(id);
            done.add(id);
        }
    }

    /** Lets go of the ids whose splits are all done. */
    void release(ReaderOutput<?> output) {
        for (String id : done) {
            try {
                output.releaseOutputForSplit(id);
            } catch (NullPointerException noClock) {
                // Flink 2.2 drops the split's metric group and output first, then fails on the
                // split's idleness clock when it has none (an output it made before a new main
                // output): nothing of the split is left held, and the task must not fail for it.
            }
        }
        done.clear();
    }
}
