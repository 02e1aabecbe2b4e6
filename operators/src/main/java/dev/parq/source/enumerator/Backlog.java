package dev.parq.source.enumerator;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a following source reads a backlog, as Flink is told
 * ({@link SplitEnumeratorContext#setIsProcessingBacklog}): from a scan that finds at least a
 * split's worth of lines at once (rotated files waiting at the start, a large file moved in), or a
 * restart whose readers were restored with that much between them ({@link SplitsRestored}), until
 * all of it is read, i.e. no split waits to be handed out and every reader has said it read all the
 * splits handed to it ({@link SplitsRead}). Flink passes the flag down the job with the records: the compaction
 * compacts everything waiting at the first checkpoint after a backlog, so that the rows of a
 * catch-up become visible then and not a compaction interval later, and a job given
 * {@code execution.checkpointing.interval-during-backlog} checkpoints at that interval meanwhile.
 * Once a backlog is read, the {@link CheckpointRequest} asks for that checkpoint at once.
 *
 * <p>A reader's word travels while the enumerator may be handing it more, and a split request
 * comes from a reader just registered before the splits handed to it at its registration arrive:
 * so a reader counts the splits it received, and is idle once that count is all it was given.
 */
final class Backlog {

    private static final Logger LOG = LoggerFactory.getLogger(Backlog.class);

    private final SplitEnumeratorContext<?> context;
    private final EnumeratorMetrics metrics;
    private final long threshold;
    private final CheckpointRequest afterBacklog;
    /** Readers with splits to read, as far as they have said: every reader until it has said otherwise. */
    private final Set<Integer> busy = new HashSet<>();
    /** Per reader, the splits handed to it since it registered. */
    private final Map<Integer, Long> given = new HashMap<>();
    /** Per reader restored from a checkpoint, the bytes it was restored with, until it has read them. */
    private final Map<Integer, Long> restoredTo = new HashMap<>();
    private boolean reading;
    private boolean unsupported;

    /**
     * A backlog starts with a scan that finds at least {@code threshold} bytes; once read,
     * {@code afterBacklog} is asked for a checkpoint.
     */
    Backlog(SplitEnumeratorContext<?> context, EnumeratorMetrics metrics, long threshold,
            CheckpointRequest afterBacklog) {
        this.context = context;
        this.metrics = metrics;
        this.threshold = threshold;
        this.afterBacklog = afterBacklog;
    }

    /** A scan found {@code bytes} of lines to hand out. */
    void found(long bytes) {
        if (bytes >= threshold && !reading) {
            reading = true;
            LOG.info("reading a backlog: {} bytes found at once", bytes);
            tell(true);
        }
    }

    /**
     * {@code reader} was restored from a checkpoint with {@code bytes} of lines to read: what the
     * readers were restored with and have not read yet counts as one scan's find.
     */
    void restored(int reader, long bytes) {
        restoredTo.put(reader, bytes);
        found(restoredTo.values().stream().mapToLong(Long::longValue).sum());
    }

    /** A reader registered: one restored from a checkpoint reads its splits before it says it is done. */
    void registered(int reader) {
        given.put(reader, 0L);
        busy.add(reader);
    }

    /** {@code count} splits were handed to {@code reader}. */
    void assigned(int reader, int count) {
        given.merge(reader, (long) count, Long::sum);
        busy.add(reader);
    }

    /** {@code reader} said it read all of the {@code received} splits handed to it. */
    void read(int reader, long received) {
        restoredTo.remove(reader);
        if (received >= given.getOrDefault(reader, 0L)) {
            busy.remove(reader);
        }
    }

    /** Ends the backlog being read, if all of it is: call once the splits are handed out. */
    void settle(boolean nonePending) {
        if (reading && nonePending && busy.isEmpty()
                && context.registeredReaders().size() >= context.currentParallelism()) {
            reading = false;
            LOG.info("the backlog is read");
            tell(false);
            metrics.backlogsRead++;
            askForCheckpoint();
        }
    }

    /** Whether a backlog is being read. */
    boolean reading() {
        return reading;
    }

    /**
     * Asks for a checkpoint of the job, named by the variables of the enumerator's metric group
     * (Flink tells an enumerator its job no other way); a context without them, a test's, asks none.
     */
    private void askForCheckpoint() {
        String job = context.metricGroup().getAllVariables().get(ScopeFormat.SCOPE_JOB_ID);
        if (job == null) {
            return;
        }
        context.callAsync(() -> {
            afterBacklog.ask(JobID.fromHexString(job));
            return null;
        }, (ignored, failure) -> {
            if (failure != null) {
                LOG.warn("could not ask for a checkpoint after the backlog; the next periodic one commits it", failure);
            }
        });
    }

    private void tell(boolean backlog) {
        if (unsupported) {
            return;
        }
        try {
            context.setIsProcessingBacklog(backlog);
        } catch (UnsupportedOperationException e) {
            // A context of Flink's tests; a job's context takes it.
            unsupported = true;
        }
    }
}
