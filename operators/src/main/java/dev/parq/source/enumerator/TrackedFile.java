package dev.parq.source.enumerator;

/**
 * A file the tailing enumerator follows, known by its identity (device and inode) and the hash of
 * its first bytes, under the path it last had: everything before {@code issuedUpTo} (always a line
 * start) has been handed to a reader.
 */
public record TrackedFile(String fileKey, String path, long issuedUpTo, int prefixLength, long prefixHash) {

    TrackedFile at(String newPath, long newIssuedUpTo, int newPrefixLength, long newPrefixHash) {
        return new TrackedFile(fileKey, newPath, newIssuedUpTo, newPrefixLength, newPrefixHash);
    }
}
