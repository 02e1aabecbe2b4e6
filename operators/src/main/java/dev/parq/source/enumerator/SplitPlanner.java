package dev.parq.source.enumerator;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.parq.io.Compression;
import dev.parq.io.RangeReader;
import dev.parq.io.StandardInput;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.split.FileSplit;
import dev.parq.source.split.LineSnapper;

/**
 * Cuts files into splits of about {@code splitSize} bytes: the nominal boundaries are multiples of
 * the split size, each snapped forward to the next line start. Only the bytes between a boundary
 * and the next {@code '\n'} are read; a line longer than a window yields one longer split.
 *
 * <p>A compressed file, and standard input, are read as one stream from their start: their split
 * is the whole input ({@code [0, size)}, of the compressed bytes), whatever its size. When every
 * input is such a stream and there are fewer of them than readers, each compressed file gets one
 * split per share of it (at most {@link #MAX_SHARES}): each of those readers parses its share of
 * the chunks, so that the parsing and writing, which take about three times as long as inflating,
 * run on several cores. Where every reader runs in this process the file is inflated once and its
 * chunks dealt; elsewhere each of them inflates all of it. Standard input, when it is the
 * only input, is dealt to up to {@link #MAX_STDIN_SHARES} readers of this process: it is read once,
 * its chunks handed round (see {@code SharedLines}); a job that reads it runs in this process.
 */
public final class SplitPlanner {

    /**
     * Most readers that share one compressed file. On a cluster each inflates all of it, so past
     * the ratio of parsing and writing time to inflating time (about 3 for gzip) more shares only
     * cost CPU; in one process the inflating reader is the limit there.
     */
    static final int MAX_SHARES = 3;
    /**
     * Most readers that share standard input, which is read once and dealt: each holds up to
     * {@code SharedLines.QUEUED} chunks of it on the heap while its reader catches up.
     */
    static final int MAX_STDIN_SHARES = 4;

    /**
     * Most readers that snap the boundaries of one file at once where each read is a request (an
     * object's GET, see {@link RangeReader#readsAreRequests}). One reader snapping them in turn
     * waits a round trip for each, before the job reads anything: a 1 GiB object's 24 boundaries
     * took 0.6 s of the job's start against an S3 server on this machine, and a 100 GiB object's
     * 1,600 would take a minute against a store a few milliseconds away.
     */
    static final int CONCURRENT_SNAPS = 8;

    /** Opens a reader of an input's bytes: {@link RangeReader#open}, or a test's. */
    @FunctionalInterface
    interface Opener {
        RangeReader open(String path) throws IOException;
    }

    private final long splitSize;
    private final Opener opener;

    public SplitPlanner(long splitSize) {
        this(splitSize, RangeReader::open);
    }

    SplitPlanner(long splitSize, Opener opener) {
        if (splitSize <= 0) {
            throw new IllegalArgumentException("split size must be positive, got " + splitSize);
        }
        this.splitSize = splitSize;
        this.opener = opener;
    }

    public List<FileSplit> plan(List<InputFile> files) throws IOException {
        return plan(files, 1);
    }

    /**
     * Splits for {@code parallelism} readers taking them in order. With more than one reader, the
     * last {@code parallelism} split sizes of the input are cut in quarters: the readers then run
     * out of work within a quarter split of each other instead of one finishing a whole split
     * while the others wait at the end.
     */
    public List<FileSplit> plan(List<InputFile> files, int parallelism) throws IOException {
        long total = 0;
        for (InputFile file : files) {
            total += file.length();
        }
        long tailFrom = parallelism > 1 ? total - parallelism * splitSize : Long.MAX_VALUE;
        List<FileSplit> splits = new ArrayList<>();
        long fileStart = 0;
        for (InputFile file : files) {
            splits.addAll(plan(file, tailFrom - fileStart));
            fileStart += file.length();
        }
        return shared(splits, parallelism);
    }

    public List<FileSplit> plan(InputFile file) throws IOException {
        return plan(file, Long.MAX_VALUE);
    }

    private List<FileSplit> plan(InputFile file, long tailFrom) throws IOException {
        if (StandardInput.names(file.path())) {
            return List.of(wholeFile(file));
        }
        if (file.length() == 0) {
            return List.of();
        }
        long[] nominal = nominalBoundaries(file.length(), tailFrom);
        if (nominal.length == 1) {
            // One split of the whole file, compressed or not: nothing to read (for a store's small
            // object, a request less; its reader looks at its first bytes for a compression).
            return List.of(wholeFile(file));
        }
        try (RangeReader reader = opener.open(file.path())) {
            if (Compression.of(file.path(), reader).compressed()) {
                return List.of(wholeFile(file));
            }
            // The last boundary is at or past the file's end and needs no read.
            long[] ends = reader.readsAreRequests() && nominal.length > 2
                    ? snapAtOnce(file, nominal, reader)
                    : snap(snapper(reader, file.length()), nominal, 0, nominal.length);
            return splits(file, ends);
        }
    }

    private static FileSplit wholeFile(InputFile file) {
        return new FileSplit(file.path() + "@0", file.path(), file.fileKey(), 0, file.length());
    }

    /**
     * {@code splits} with each compressed file's split dealt into shares, when all of them are
     * whole streams and fewer than {@code parallelism}; else {@code splits} as they are.
     */
    private static List<FileSplit> shared(List<FileSplit> splits, int parallelism) throws IOException {
        if (splits.isEmpty() || splits.size() >= parallelism) {
            return splits;
        }
        if (splits.size() == 1 && StandardInput.names(splits.get(0).path())) {
            return dealt(splits.get(0), Math.min(MAX_STDIN_SHARES, parallelism));
        }
        List<FileSplit> compressed = new ArrayList<>();
        for (FileSplit split : splits) {
            if (StandardInput.names(split.path())) {
                continue;
            }
            if (split.start() != 0 || !isCompressed(split.path())) {
                return splits;
            }
            compressed.add(split);
        }
        if (compressed.isEmpty()) {
            return splits;
        }
        int readersFree = parallelism - (splits.size() - compressed.size());
        int shares = Math.min(MAX_SHARES, Math.max(1, readersFree / compressed.size()));
        if (shares == 1) {
            return splits;
        }
        List<FileSplit> dealt = new ArrayList<>();
        for (FileSplit split : splits) {
            if (!compressed.contains(split)) {
                dealt.add(split);
                continue;
            }
            dealt.addAll(dealt(split, shares));
        }
        return dealt;
    }

    /**
     * The splits of the shares of a whole stream's split, with ids {@code ID#SHARE/SHARES@PLAN}:
     * the token of this plan lets the readers of one job's shares find each other's stream (see
     * {@link FileSplit#streamName()}) and no other job's.
     */
    private static List<FileSplit> dealt(FileSplit split, int shares) {
        List<FileSplit> dealt = new ArrayList<>(shares);
        String plan = UUID.randomUUID().toString();
        for (int share = 0; share < shares; share++) {
            dealt.add(new FileSplit(split.splitId() + "#" + share + "/" + shares + "@" + plan, split.path(), split.fileKey(),
                    split.start(), split.end(), split.offset(), split.prefixLength(), split.prefixHash(), shares,
                    share));
        }
        return dealt;
    }

    private static boolean isCompressed(String path) throws IOException {
        try (RangeReader reader = RangeReader.open(path)) {
            return Compression.of(path, reader).compressed();
        }
    }

    /**
     * The nominal boundaries of a file of {@code length} bytes: every {@code splitSize} bytes, every
     * quarter of it from {@code tailFrom} on, up to the first at or past the end.
     */
    private long[] nominalBoundaries(long length, long tailFrom) {
        long tailSplitSize = Math.max(1, splitSize / 4);
        long[] nominal = new long[16];
        int count = 0;
        for (long at = 0; at < length; ) {
            at += at >= tailFrom ? tailSplitSize : splitSize;
            if (count == nominal.length) {
                nominal = Arrays.copyOf(nominal, count * 2);
            }
            nominal[count++] = at;
        }
        return Arrays.copyOf(nominal, count);
    }

    /**
     * The line starts at or after {@code nominal[from]} to {@code nominal[to - 1]}, in order. A
     * boundary inside the line the one before it was snapped past gets that one's end unread, so
     * that a line longer than a split is read once.
     */
    private static long[] snap(LineSnapper snapper, long[] nominal, int from, int to) throws IOException {
        long[] ends = new long[to - from];
        long end = -1;
        for (int i = from; i < to; i++) {
            if (nominal[i] > end) {
                end = snapper.snap(nominal[i]);
            }
            ends[i - from] = end;
        }
        return ends;
    }

    /**
     * {@link #snap} of all of {@code nominal}, cut into consecutive shares, each snapped by a reader
     * of its own, all at once: the first by {@code opened} (the planner's, already open: an open of
     * an object is a request) on this thread, the others by readers opened on threads of their own.
     */
    private long[] snapAtOnce(InputFile file, long[] nominal, RangeReader opened) throws IOException {
        int readers = Math.min(CONCURRENT_SNAPS, nominal.length - 1);
        ExecutorService pool = Executors.newFixedThreadPool(readers - 1, task -> {
            Thread thread = new Thread(task, "parq split planner " + file.path());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<long[]>> shares = new ArrayList<>(readers - 1);
            for (int share = 1; share < readers; share++) {
                int from = shareStart(nominal.length, share, readers);
                int to = shareStart(nominal.length, share + 1, readers);
                shares.add(pool.submit(() -> {
                    try (RangeReader reader = opener.open(file.path())) {
                        return snap(snapper(reader, file.length()), nominal, from, to);
                    }
                }));
            }
            long[] first = snap(snapper(opened, file.length()), nominal, 0, shareStart(nominal.length, 1, readers));
            long[] ends = Arrays.copyOf(first, nominal.length);
            int at = first.length;
            for (Future<long[]> share : shares) {
                long[] snapped = share.get();
                System.arraycopy(snapped, 0, ends, at, snapped.length);
                at += snapped.length;
            }
            return ends;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while cutting " + file.path() + " into splits");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failed) {
                throw failed;
            }
            if (e.getCause() instanceof RuntimeException failed) {
                throw failed;
            }
            throw new IOException("cutting " + file.path() + " into splits failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Where share {@code share} of {@code count} boundaries cut into {@code shares} starts. */
    private static int shareStart(int count, int share, int shares) {
        return (int) ((long) count * share / shares);
    }

    private static LineSnapper snapper(RangeReader reader, long length) {
        return new LineSnapper((position, into, count) -> reader.read(position, into, 0, count), length);
    }

    /** The splits between consecutive line starts {@code ends}, from byte 0 (an end that does not move on is no split). */
    private static List<FileSplit> splits(InputFile file, long[] ends) {
        List<FileSplit> splits = new ArrayList<>();
        long start = 0;
        for (long end : ends) {
            if (end > start) {
                splits.add(new FileSplit(file.path() + "@" + start, file.path(), file.fileKey(), start, end));
                start = end;
            }
        }
        return splits;
    }
}
