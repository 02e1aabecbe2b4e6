package dev.parq.source.enumerator;

import java.util.List;
import java.util.Map;

import dev.parq.source.enumerate.InputFile;

/**
 * What one look at a followed file found, taken off the coordinator thread: its size and when it
 * was last modified; where its last whole line ends after {@code searchedFrom} (-1 if none does);
 * the hash of its first {@code prefixLength} bytes, and of as many as the tracked file had hashed
 * ({@code knownPrefixHash}); for a file not tracked yet, the hashes of its first bytes at the
 * lengths other files were hashed at ({@code hashesByLength}), to tell whether it is a copy of one
 * of them; and line starts that cut a long stretch of new lines into splits of about the split size.
 */
record FileScan(InputFile file, long size, long modified, long searchedFrom, long lineEnd, int prefixLength,
        long prefixHash, long knownPrefixHash, Map<Integer, Long> hashesByLength, List<Long> cuts) {

    /** A file listed but not readable at the moment: nothing is known of it but that it is there. */
    static FileScan unreadable(InputFile file) {
        return new FileScan(file, -1, 0, 0, -1, 0, 0, 0, Map.of(), List.of());
    }

    boolean readable() {
        return size >= 0;
    }

    /** Whether this file's first {@code length} bytes hash to {@code hash}. */
    boolean startsLike(int length, long hash) {
        Long mine = length == prefixLength ? Long.valueOf(prefixHash) : hashesByLength.get(length);
        return mine != null && mine == hash;
    }
}
