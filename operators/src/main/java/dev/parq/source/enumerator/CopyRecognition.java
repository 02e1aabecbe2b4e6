package dev.parq.source.enumerator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells a file that appears among the inputs from a copy of a followed one. Copy-truncate rotation
 * copies {@code app.log} to {@code app.log.1} and then truncates {@code app.log}: the copy is a new
 * identity whose first bytes are those of a file already read. Read from its start, it would give
 * every line again; it is read from where the original was instead.
 *
 * <p>A copy found once the original has ended (see {@link ReleasedFile}) is adopted at once. A copy
 * found while its original is still there unchanged (the scan fell between the copy and the
 * truncation) is parked: not read until the original ends (then adopted) or until the copy has
 * been complete and quiet for the rotate wait with the original still whole (then it is a file of
 * its own that starts alike, read from its start). A file with the same identity as the ended one
 * is never its copy: that is its inode, reused.
 */
final class CopyRecognition {

    /** What to do with a file seen for the first time. */
    sealed interface Verdict permits Adopt, Park, Independent {}

    /** A copy of {@code original}: read it from {@code from}. */
    record Adopt(ReleasedFile original, long from) implements Verdict {}

    /** Perhaps a copy of a file still followed: look at it again at the next scan. */
    record Park() implements Verdict {}

    /** A file of its own. */
    record Independent() implements Verdict {}

    private static final Verdict PARK = new Park();
    private static final Verdict INDEPENDENT = new Independent();

    private final List<ReleasedFile> released = new ArrayList<>();
    /** Parked files by identity: when first parked, and their size and when it last changed. */
    private final Map<String, Parked> parked = new HashMap<>();
    private final long waitMillis;

    private record Parked(long size, long sinceMillis, long firstMillis) {}

    CopyRecognition(Collection<ReleasedFile> restored, long waitMillis) {
        this.released.addAll(restored);
        this.waitMillis = waitMillis;
    }

    /** Keeps an ended file for a while; one with nothing read has no copy to skip, but its loss is counted. */
    void release(ReleasedFile file) {
        released.add(file);
    }

    /**
     * Decides on a file not tracked yet, of identity {@code key}, given the files followed now
     * (the ones still whole at this scan).
     */
    Verdict judge(String key, FileScan scan, Collection<TrackedFile> followed, long now) {
        ReleasedFile original = null;
        for (ReleasedFile candidate : released) {
            if (isCopy(key, scan, candidate.file()) && (original == null
                    || candidate.releasedAtMillis() > original.releasedAtMillis())) {
                original = candidate;
            }
        }
        if (original != null) {
            released.remove(original);
            parked.remove(key);
            return new Adopt(original, Math.min(original.file().issuedUpTo(), scan.size()));
        }
        TrackedFile source = null;
        for (TrackedFile file : followed) {
            if (isCopy(key, scan, file)) {
                source = file;
                break;
            }
        }
        if (source == null) {
            parked.remove(key);
            return INDEPENDENT;
        }
        Parked before = parked.get(key);
        Parked state = before == null ? new Parked(scan.size(), now, now)
                : before.size() == scan.size() ? before : new Parked(scan.size(), now, before.firstMillis());
        parked.put(key, state);
        // Still being copied: shorter than what was read of the original, and growing.
        boolean copying = scan.size() < source.issuedUpTo() && now - state.sinceMillis() < waitMillis;
        if (copying || now - state.firstMillis() < waitMillis) {
            return PARK;
        }
        parked.remove(key);
        return INDEPENDENT;
    }

    /** Whether the file scanned starts as {@code file} did, over as many bytes as were hashed of it. */
    private static boolean isCopy(String key, FileScan scan, TrackedFile file) {
        return !file.fileKey().equals(key) && file.issuedUpTo() > 0 && file.prefixLength() > 0
                && scan.size() >= file.prefixLength() && scan.startsLike(file.prefixLength(), file.prefixHash());
    }

    /** Forgets parked files no longer listed. */
    void retainParked(Set<String> listed) {
        parked.keySet().retainAll(listed);
    }

    /**
     * Removes and returns the ended files whose while is over and that a checkpoint completed since
     * they ended no longer needs.
     */
    List<ReleasedFile> expire(long now, long lastCompletedCheckpoint) {
        List<ReleasedFile> expired = new ArrayList<>();
        for (Iterator<ReleasedFile> it = released.iterator(); it.hasNext(); ) {
            ReleasedFile file = it.next();
            if (now - file.releasedAtMillis() >= waitMillis && lastCompletedCheckpoint > file.afterCheckpoint()) {
                expired.add(file);
                it.remove();
            }
        }
        return expired;
    }

    /** The lengths of first bytes a new file must be hashed at to be compared with these files. */
    Set<Integer> lengths(Collection<TrackedFile> followed) {
        Set<Integer> lengths = new HashSet<>();
        for (ReleasedFile file : released) {
            lengths.add(file.file().prefixLength());
        }
        for (TrackedFile file : followed) {
            lengths.add(file.prefixLength());
        }
        lengths.remove(0);
        return lengths;
    }

    List<ReleasedFile> released() {
        return List.copyOf(released);
    }

    int parkedCount() {
        return parked.size();
    }
}
