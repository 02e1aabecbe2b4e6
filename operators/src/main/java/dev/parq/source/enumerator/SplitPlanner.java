package dev.parq.source.enumerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

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

    private final long splitSize;

    public SplitPlanner(long splitSize) {
        if (splitSize <= 0) {
            throw new IllegalArgumentException("split size must be positive, got " + splitSize);
        }
        this.splitSize = splitSize;
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
        try (RangeReader reader = RangeReader.open(file.path())) {
            if (Compression.of(file.path(), reader).compressed()) {
                return List.of(wholeFile(file));
            }
            LineSnapper snapper = new LineSnapper(
                    (position, into, length) -> reader.read(position, into, 0, length), file.length());
            return plan(file, snapper, tailFrom);
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

    List<FileSplit> plan(InputFile file, LineSnapper snapper) throws IOException {
        return plan(file, snapper, Long.MAX_VALUE);
    }

    /**
     * Nominal boundaries every {@code splitSize} bytes, every quarter of it from {@code tailFrom}
     * (a file offset, possibly outside the file) on, each snapped forward to a line start.
     */
    List<FileSplit> plan(InputFile file, LineSnapper snapper, long tailFrom) throws IOException {
        List<FileSplit> splits = new ArrayList<>();
        long tailSplitSize = Math.max(1, splitSize / 4);
        long start = 0;
        long nominal = 0;
        while (start < file.length()) {
            nominal += nominal >= tailFrom ? tailSplitSize : splitSize;
            if (nominal <= start) {
                // Inside a line longer than a window: on to the first boundary after it.
                continue;
            }
            long end = snapper.snap(nominal);
            if (end > start) {
                splits.add(new FileSplit(
                        file.path() + "@" + start, file.path(), file.fileKey(), start, end));
                start = end;
            }
        }
        return splits;
    }
}
