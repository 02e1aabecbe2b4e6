package dev.parq.job.run;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

import javax.annotation.Nullable;

import org.apache.flink.core.fs.Path;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.Storage;
import dev.parq.sink.commit.CommitRecord;

/**
 * Chooses the snapshot an ingest resumes from, and refuses one that would write lines to the output
 * a second time: older than the newest checkpoint committed there ({@link CommitRecord}), because
 * the newer ones were deleted or cannot be read, or none at all while the output has commits. Those
 * a user may force, taking the lines twice. A snapshot of another output ({@link StateOwner}) is
 * refused, forced or not: its reading is of that output. A newer snapshot that cannot be read but
 * committed nothing (a checkpoint cut short by a crash) is passed over with a warning. Nothing is
 * written unless a resume is forced.
 */
final class ResumeGuard {

    private ResumeGuard() {}

    /**
     * The snapshot an ingest into {@code output} resumes from (null: start from nothing):
     * {@code requested} if one is, else the newest readable one in {@code stateDir}.
     */
    @Nullable
    static RestorePoints.Snapshot choose(Path output, Path stateDir, @Nullable Path requested, boolean force,
            Consumer<String> warnings) throws IOException, ConversionException {
        String outputId = StateOwner.outputId(output);
        RestorePoints.Snapshot restore;
        RestorePoints.Found found;
        if (requested != null) {
            restore = RestorePoints.named(requested);
            found = new RestorePoints.Found(true, restore, List.of());
            StateOwner.Mark mark = StateOwner.markAbove(RestorePoints.directory(requested));
            if (mark != null && !StateOwner.isOf(mark, outputId, output)) {
                overridden("the snapshot " + restore.location() + " is of " + mark.output() + " (its state directory "
                        + Storage.display(mark.stateDir()) + "), not of " + Storage.display(output) + ": resuming it"
                        + " here would pass over every line " + mark.output() + " holds and leave it out of "
                        + Storage.display(output) + ". Resume from a snapshot of " + Storage.display(output)
                        + " (--force does not override this)", false, null, warnings);
            }
        } else {
            found = RestorePoints.newest(stateDir);
            restore = found.newest();
            StateOwner.Mark mark = StateOwner.mark(stateDir);
            if (restore != null && mark != null && !StateOwner.isOf(mark, outputId, output)) {
                overridden("--state " + Storage.display(stateDir) + " holds the snapshots of "
                        + mark.output() + ", not of " + Storage.display(output) + ": resuming from them would pass"
                        + " over every line " + mark.output() + " holds and leave it out of " + Storage.display(output)
                        + ". Give " + Storage.display(output) + " its own --state (--force does not override this)",
                        false, null, warnings);
            }
        }
        CommitRecord record = new CommitRecord(output);
        Long committed = record.read();
        long resumed = restore == null ? 0 : restore.checkpointId();
        if (committed == null || resumed >= committed) {
            for (RestorePoints.Unreadable passed : found.unreadable()) {
                warnings.accept(passed.location() + " cannot be read (" + passed.reason() + "): passed over"
                        + (committed != null && passed.namedCheckpoint() > committed
                                ? "; a checkpoint cut short, nothing was committed from it (" + Storage.display(output)
                                        + " holds checkpoint " + committed + ")"
                                : "")
                        + "; resuming from " + (restore == null ? "the start"
                                : "checkpoint " + resumed + " (" + restore.location() + ")"));
            }
            return restore;
        }
        String again = restore == null
                ? "starting over would read the inputs again and write again every line committed up to it"
                : "resuming from checkpoint " + resumed + " (" + restore.location() + ") would write again every"
                        + " line " + (resumed + 1 == committed ? "checkpoint " + committed
                                : "checkpoints " + (resumed + 1) + " to " + committed) + " committed";
        String forced = restore == null ? "start over" : "resume from checkpoint " + resumed;
        if (overridden(Storage.display(output) + " holds what checkpoint " + committed + " committed, but "
                + whatHappened(stateDir, requested, found) + ": " + again + ". Put back the state it was committed"
                + " with, or pass --force to " + forced + " and accept those lines twice", force,
                (restore == null ? "starting over" : "resuming from checkpoint " + resumed) + " though checkpoint "
                        + committed + " was committed to " + Storage.display(output)
                        + ": the lines committed since are written again (--force)", warnings)) {
            if (restore == null) {
                record.delete();
            } else {
                record.write(resumed);
            }
        }
        return restore;
    }

    /** What became of the snapshots newer than the one resumed from, as far as can be told. */
    private static String whatHappened(Path stateDirectory, @Nullable Path requested, RestorePoints.Found found) {
        String stateDir = Storage.display(stateDirectory);
        if (requested != null) {
            return "the snapshot named is older";
        }
        if (!found.unreadable().isEmpty()) {
            RestorePoints.Unreadable newest = found.unreadable().get(0);
            int others = found.unreadable().size() - 1;
            return newest.location() + " cannot be read (" + newest.reason() + ")"
                    + (others == 0 ? "" : ", nor " + others + " more snapshot" + (others == 1 ? "" : "s"))
                    + (found.newest() == null ? ", and " + stateDir + " holds no other" : "");
        }
        if (found.newest() != null) {
            return "the snapshots after checkpoint " + found.newest().checkpointId() + " are missing from "
                    + stateDir + " (deleted?)";
        }
        return found.exists() ? stateDir + " holds no snapshot (deleted?)"
                : "its state directory " + stateDir + " is gone (removed?)";
    }

    /**
     * Refuses with {@code refusal} (a usage error), unless {@code force}: then tells {@code warning}
     * and returns true, for the caller to set the commit record back.
     */
    private static boolean overridden(String refusal, boolean force, @Nullable String warning,
            Consumer<String> warnings) throws ConversionException {
        if (!force) {
            throw ConversionException.usage(refusal);
        }
        warnings.accept(warning);
        return true;
    }
}
