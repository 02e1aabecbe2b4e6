package dev.parq.source.enumerator;

/**
 * A file the tailing enumerator follows, known by its identity (device and inode) and the hash of
 * its first bytes, under the path it last had: everything before {@code issuedUpTo} (a line start,
 * or the end of a rotated file's last line) has been handed to a reader. {@code size} is what it had
 * at the last scan, {@code grownAtMillis} when that size was first seen, and {@code renamed} whether
 * it was renamed since it was found (rotated away).
 */
public record TrackedFile(String fileKey, String path, long issuedUpTo, int prefixLength, long prefixHash, long size,
        long grownAtMillis, boolean renamed) {}
