package dev.parq.source.split;

import java.util.Objects;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A byte range of one input file that holds whole lines: {@code [start, end)}, where {@code start}
 * is 0 or just after a {@code '\n'} and {@code end} is just after a {@code '\n'} or the file's end.
 *
 * <p>{@code offset} is how far a reader has got (lines before it are done), so a split restored
 * from a checkpoint resumes there. The file is known by its path and its {@code fileKey}
 * (device and inode where the file system has them), so that a renamed or rotated file is still
 * recognised. {@code end} is a plain field of the split, not derived from the file's length, so
 * that a split of a growing file can be given a later end.
 *
 * <p>A compressed file, or standard input, is one stream, which cannot be cut: its split is the
 * whole input. Several readers can share it: the split that is share {@code k} of {@code n} hands
 * on the stream's chunks of lines {@code k}, {@code k + n}, ... and leaves the others to the splits
 * of the other shares: read once in this process and its chunks dealt where all the readers run
 * here (standard input always), else decompressed whole by each of them.
 */
public final class FileSplit implements SourceSplit {

    private final String id;
    private final String path;
    private final String fileKey;
    private final long start;
    private final long end;
    private final long offset;
    /** How many of the file's first bytes {@link #prefixHash} covers; 0 where the split has none. */
    private final int prefixLength;
    private final long prefixHash;
    private final int shares;
    private final int share;
    /** For a stream read whole: how many of its (decompressed) bytes are done, a line start. */
    private final long streamed;

    public FileSplit(String id, String path, String fileKey, long start, long end) {
        this(id, path, fileKey, start, end, start);
    }

    public FileSplit(String id, String path, String fileKey, long start, long end, long offset) {
        this(id, path, fileKey, start, end, offset, 0, 0);
    }

    public FileSplit(String id, String path, String fileKey, long start, long end, long offset, int prefixLength,
            long prefixHash) {
        this(id, path, fileKey, start, end, offset, prefixLength, prefixHash, 1, 0);
    }

    public FileSplit(String id, String path, String fileKey, long start, long end, long offset, int prefixLength,
            long prefixHash, int shares, int share) {
        this(id, path, fileKey, start, end, offset, prefixLength, prefixHash, shares, share, 0);
    }

    public FileSplit(String id, String path, String fileKey, long start, long end, long offset, int prefixLength,
            long prefixHash, int shares, int share, long streamed) {
        if (streamed < 0 || streamed > 0 && shares > 1) {
            throw new IllegalArgumentException("invalid split of " + path + ": streamed " + streamed + " of a share");
        }
        if (start < 0 || end < start || offset < start || offset > end) {
            throw new IllegalArgumentException(
                    "invalid split of " + path + ": start " + start + ", end " + end + ", offset " + offset);
        }
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("invalid split of " + path + ": share " + share + " of " + shares);
        }
        this.shares = shares;
        this.share = share;
        this.id = Objects.requireNonNull(id);
        this.path = Objects.requireNonNull(path);
        this.fileKey = fileKey == null ? "" : fileKey;
        this.start = start;
        this.end = end;
        this.offset = offset;
        this.prefixLength = prefixLength;
        this.prefixHash = prefixHash;
        this.streamed = streamed;
    }

    @Override
    public String splitId() {
        return id;
    }

    public String path() {
        return path;
    }

    /** Device and inode of the file, or "" where the file system has no such key. */
    public String fileKey() {
        return fileKey;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    /** The first byte not yet read. */
    public long offset() {
        return offset;
    }

    public long length() {
        return end - start;
    }

    /** The bytes from the offset to the end: what is left to read. */
    public long unread() {
        return end - offset;
    }

    /** See {@link #prefixHash()}. */
    public int prefixLength() {
        return prefixLength;
    }

    /**
     * The CRC32C of the file's first {@link #prefixLength()} bytes when the split was issued: with
     * the file key, what tells the file from another that got its inode.
     */
    public long prefixHash() {
        return prefixHash;
    }

    /** Into how many shares the file's stream of chunks is dealt; 1 for a split read whole. */
    public int shares() {
        return shares;
    }

    /** Which of the {@link #shares()} this split takes: the chunks whose index modulo shares is this one. */
    public int share() {
        return share;
    }

    /**
     * For a split read as one stream (a compressed file), how many bytes of the stream, decompressed,
     * were read before this split was checkpointed: it resumes after them. Its {@link #offset()}
     * counts compressed bytes, where no line can be resumed from.
     */
    public long streamed() {
        return streamed;
    }

    /** This split of a stream, with its first {@code bytes} (a line start) done. */
    public FileSplit withStreamed(long bytes) {
        return new FileSplit(id, path, fileKey, start, end, offset, prefixLength, prefixHash, shares, share, bytes);
    }

    /**
     * For a share of a stream, a name of that stream that all its shares have and no other split:
     * their id, {@code ID#SHARE/SHARES@PLAN} as the split planner gives it, without the share.
     */
    public String streamName() {
        int share = id.lastIndexOf('#');
        int plan = id.lastIndexOf('@');
        return share < 0 || plan < share ? id : id.substring(0, share) + id.substring(plan);
    }

    /** This split of the same file, found under another name (renamed by log rotation). */
    public FileSplit movedTo(String newPath) {
        return new FileSplit(id, newPath, fileKey, start, end, offset, prefixLength, prefixHash, shares, share,
                streamed);
    }

    public FileSplit withOffset(long newOffset) {
        return new FileSplit(id, path, fileKey, start, end, newOffset, prefixLength, prefixHash, shares, share,
                streamed);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FileSplit)) {
            return false;
        }
        FileSplit that = (FileSplit) o;
        return start == that.start && end == that.end && offset == that.offset && id.equals(that.id)
                && path.equals(that.path) && fileKey.equals(that.fileKey) && prefixLength == that.prefixLength
                && prefixHash == that.prefixHash && shares == that.shares && share == that.share
                && streamed == that.streamed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, path, fileKey, start, end, offset, prefixLength, prefixHash, shares, share, streamed);
    }

    @Override
    public String toString() {
        return "FileSplit{" + id + ": " + path + " [" + start + ", " + end + ") at " + offset
                + (shares > 1 ? ", share " + share + " of " + shares : "")
                + (streamed > 0 ? ", " + streamed + " bytes of its stream read" : "") + "}";
    }
}
