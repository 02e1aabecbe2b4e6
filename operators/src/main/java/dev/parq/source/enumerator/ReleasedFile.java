package dev.parq.source.enumerator;

/**
 * A followed file that ended at {@code releasedAtMillis}: truncated or rewritten in place, or no
 * longer among the inputs (deleted, or moved where the paths do not match). For a while it is
 * kept, so that a copy of it that appears (copy-truncate rotation, a move to another file system)
 * is read from where the file was, not again from its start; once that while and a checkpoint taken
 * after it are over, it is forgotten, and what was never handed out of it is counted as lost.
 * {@code afterCheckpoint} is the newest checkpoint taken before it ended.
 */
public record ReleasedFile(TrackedFile file, long releasedAtMillis, long afterCheckpoint, boolean gone) {

    /** Bytes it had at its last scan that were never handed to a reader. */
    long unread() {
        return Math.max(0, file.size() - file.issuedUpTo());
    }
}
