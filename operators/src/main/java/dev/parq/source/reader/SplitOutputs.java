package dev.parq.source.reader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;

import dev.parq.source.split.FileSplit;

/**
 * The splits whose outputs Flink holds for the reader: it makes an output and a metric group for
 * each split id a reader is given and keeps them until the reader lets go of that id, once. Two
 * splits may share an id (a file read again from its start after a truncation, a split given back
 * after a failure), so an id is let go of when the last split under it is done.
 *
 * <p>Letting go of an id closes the split's metric group, but Flink 2.2 still keeps the group
 * itself: the source operator's metric group holds a group {@value #SPLIT_GROUP}, and that one a
 * group per split id it ever saw, closed and empty (FLINK-40549, not in 2.2.1). An ingest makes a
 * split every discover interval, so those pile up for as long as it runs (about 2.5 KB a split,
 * 9 MiB an hour at one split a second). Once the reader holds no split, no group under
 * {@value #SPLIT_GROUP} is in use, and it is closed: the next split's group is made in a new one,
 * and the closed one, with every split's group in it, is garbage. (A reader never without a split,
 * one that never catches up, keeps them until it is.)
 */
final class SplitOutputs {

    /** The name of the group Flink makes the per-split metric groups in. */
    static final String SPLIT_GROUP = "split";

    private final MetricGroup readerGroup;
    private final Map<String, Integer> live = new HashMap<>();
    private final List<String> done = new ArrayList<>();
    /** Whether ids were let go of since the split groups were last closed. */
    private boolean splitGroupsHeld;

    /** The outputs of a reader whose metric group ({@code SourceReaderContext.metricGroup()}) is {@code readerGroup}. */
    SplitOutputs(MetricGroup readerGroup) {
        this.readerGroup = readerGroup;
    }

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

    /**
     * Lets go of the ids whose splits are all done, and, when no split is left, of the metric
     * groups Flink keeps for the ones let go of.
     */
    void release(ReaderOutput<?> output) {
        for (String id : done) {
            try {
                output.releaseOutputForSplit(id);
            } catch (NullPointerException noClock) {
                // Flink 2.2 drops the split's metric group and output first, then fails on the
                // split's idleness clock when it has none (an output it made before a new main
                // output): nothing of the split is left held, and the task must not fail for it.
            }
            splitGroupsHeld = true;
        }
        done.clear();
        if (splitGroupsHeld && live.isEmpty()) {
            // The source operator makes a split's group when it hands the split to this reader,
            // on the same thread: with none held here, none is in use.
            if (readerGroup.addGroup(SPLIT_GROUP) instanceof AbstractMetricGroup<?> splits) {
                splits.close();
            }
            splitGroupsHeld = false;
        }
    }
}
