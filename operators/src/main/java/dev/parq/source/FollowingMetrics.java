package dev.parq.source;

/**
 * The names of the metrics the source reports while it follows files: the enumerator's gauges,
 * and the readers' counter of bytes lost. One place for the source that reports them and the
 * status line that reads them.
 */
public final class FollowingMetrics {

    /** Files followed now; for objects, the objects remembered within the look-back window. */
    public static final String TRACKED_FILES = "trackedFiles";
    /** Bytes in the followed files not handed to a reader yet. */
    public static final String BYTES_BEHIND = "bytesBehind";
    /** Files renamed while followed (rename rotation). */
    public static final String ROTATIONS = "rotations";
    /** Files truncated or rewritten in place, read again from their start. */
    public static final String TRUNCATIONS = "truncations";
    /** New files recognised as copies of followed ones (copy-truncate rotation). */
    public static final String COPIES_RECOGNISED = "copiesRecognised";
    /** New files that start like a followed one, waiting to be told from a copy. */
    public static final String COPIES_PARKED = "copiesParked";
    /** Objects written again under a key already read, read again whole. */
    public static final String OBJECTS_REWRITTEN = "objectsRewritten";
    /** Objects that turned up below the look-back horizon (uploads that completed late): not read. */
    public static final String LATE_OBJECTS = "lateObjects";
    /**
     * Backlogs read to their end (a split's worth of lines found at once, then every split of it
     * read): the first checkpoint after one compacts and commits all that waits.
     */
    public static final String BACKLOGS_READ = "backlogsRead";
    /** Bytes deleted or truncated before they were read. */
    public static final String BYTES_LOST = "bytesLost";
    /**
     * Milliseconds since the oldest split a reader holds unread was handed to it (0 when it holds
     * none): how far behind the lines it is reading were found. Splits are handed out as the
     * enumerator finds new lines, within the discover interval of their writing.
     */
    public static final String OLDEST_UNREAD_AGE = "oldestUnreadAge";

    private FollowingMetrics() {}
}
