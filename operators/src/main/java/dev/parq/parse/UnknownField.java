package dev.parq.parse;

import java.io.Serializable;
import java.util.Objects;

/** A key path that is not in the schema: how often it occurred and where first. */
public final class UnknownField implements Serializable {
    private static final long serialVersionUID = 1L;

    private long count;
    private String firstFile;
    private long firstOffset;

    public UnknownField(long count, String firstFile, long firstOffset) {
        this.count = count;
        this.firstFile = firstFile;
        this.firstOffset = firstOffset;
    }

    public long count() {
        return count;
    }

    public String firstFile() {
        return firstFile;
    }

    public long firstOffset() {
        return firstOffset;
    }

    /**
     * Adds other's count and keeps the earlier first occurrence (by file name, then offset).
     * Updates this instance and returns it, so it also fits {@code Map.merge}.
     */
    public UnknownField merge(UnknownField other) {
        count += other.count;
        int byFile = other.firstFile.compareTo(firstFile);
        if (byFile < 0 || (byFile == 0 && other.firstOffset < firstOffset)) {
            firstFile = other.firstFile;
            firstOffset = other.firstOffset;
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UnknownField)) {
            return false;
        }
        UnknownField that = (UnknownField) o;
        return count == that.count && firstOffset == that.firstOffset && firstFile.equals(that.firstFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(count, firstFile, firstOffset);
    }

    @Override
    public String toString() {
        return count + " times, first in " + firstFile + " at byte " + firstOffset;
    }
}
