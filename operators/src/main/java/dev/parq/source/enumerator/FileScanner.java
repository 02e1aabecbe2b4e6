package dev.parq.source.enumerator;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parq.io.RangeReader;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.split.LineSnapper;
import dev.parq.source.split.PrefixHash;

/**
 * Looks at the followed files for the tailing enumerator, on a worker thread: reads each file's
 * first bytes and the bytes at its end, never the lines in between.
 */
final class FileScanner {

    /** How many of a file's first bytes tell it from another file of the same identity (a reused inode). */
    static final int PREFIX = 4096;
    private static final int TAIL_PROBE = 64 << 10;

    private final long splitSize;

    FileScanner(long splitSize) {
        this.splitSize = splitSize;
    }

    /**
     * Scans {@code files}, knowing how far each tracked file had been handed out when the scan
     * began. A file that cannot be read now (not readable, or gone since it was listed) is in the
     * result as {@link FileScan#unreadable}: it is looked at again at the next scan, and not taken
     * for gone meanwhile, which would read it again from its start once it can be read.
     *
     * @throws InterruptedIOException if the thread is interrupted (the job is ending): a read cut
     *     short by that says nothing of the file, and the scan is dropped whole
     */
    List<FileScan> scan(List<InputFile> files, Map<String, TrackedFile> known, Set<Integer> copyLengths)
            throws InterruptedIOException {
        List<FileScan> scans = new ArrayList<>(files.size());
        for (InputFile file : files) {
            try {
                scans.add(scan(file, known.get(file.fileKey()), copyLengths));
            } catch (IOException unreadable) {
                if (Thread.currentThread().isInterrupted() || unreadable instanceof ClosedByInterruptException) {
                    InterruptedIOException interrupted = new InterruptedIOException("scan of " + file.path() + " interrupted");
                    interrupted.initCause(unreadable);
                    throw interrupted;
                }
                scans.add(FileScan.unreadable(file));
            }
        }
        return scans;
    }

    private FileScan scan(InputFile file, TrackedFile tracked, Set<Integer> copyLengths) throws IOException {
        try (RangeReader reader = RangeReader.open(file.path())) {
            // Renamed away since it was listed (rotation), its path now another file's: not this one.
            if (!file.fileKey().isEmpty() && !file.fileKey().equals(reader.fileKey())) {
                throw new IOException(file.path() + " is another file since it was listed");
            }
            long size = reader.size();
            long modified = reader.lastModified();
            int knownLength = tracked == null ? 0 : (int) Math.min(size, tracked.prefixLength());
            int prefixLength = (int) Math.min(size, PREFIX);
            byte[] prefix = new byte[Math.max(prefixLength, knownLength)];
            int read = prefix.length == 0 ? 0 : reader.read(0, prefix, 0, prefix.length);
            if (read < prefix.length) {
                throw new IOException(file.path() + " shrank while it was read");
            }
            long searchedFrom = tracked == null ? 0 : Math.min(tracked.issuedUpTo(), size);
            long lineEnd = lastLineEnd(reader, searchedFrom, size);
            List<Long> cuts = lineEnd > searchedFrom + splitSize
                    ? cuts(reader, size, searchedFrom, lineEnd) : List.of();
            Map<Integer, Long> hashes = tracked == null ? PrefixHash.atLengths(prefix, prefixLength, copyLengths) : Map.of();
            return new FileScan(file, size, modified, searchedFrom, lineEnd, prefixLength, PrefixHash.of(prefix, prefixLength),
                    PrefixHash.of(prefix, knownLength), hashes, cuts);
        }
    }

    /** One past the last '\n' in [from, size), or -1: read backwards from the end. */
    private static long lastLineEnd(RangeReader reader, long from, long size) throws IOException {
        byte[] probe = new byte[(int) Math.min(TAIL_PROBE, Math.max(1, size - from))];
        long end = size;
        while (end > from) {
            int length = (int) Math.min(probe.length, end - from);
            long start = end - length;
            if (reader.read(start, probe, 0, length) < length) {
                throw new IOException("the file shrank while it was read");
            }
            for (int i = length - 1; i >= 0; i--) {
                if (probe[i] == '\n') {
                    return start + i + 1;
                }
            }
            end = start;
        }
        return -1;
    }

    /** Line starts every split size or so between from and lineEnd, for readers to take in parallel. */
    private List<Long> cuts(RangeReader reader, long size, long from, long lineEnd) throws IOException {
        LineSnapper snapper = new LineSnapper((position, into, length) -> reader.read(position, into, 0, length), size);
        List<Long> cuts = new ArrayList<>();
        long last = from;
        for (long nominal = from + splitSize; nominal < lineEnd; nominal += splitSize) {
            long cut = snapper.snap(Math.max(nominal, last + 1));
            if (cut >= lineEnd) {
                break;
            }
            if (cut > last) {
                cuts.add(cut);
                last = cut;
            }
        }
        return cuts;
    }
}
