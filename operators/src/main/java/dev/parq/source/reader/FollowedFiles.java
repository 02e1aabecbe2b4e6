package dev.parq.source.reader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.parq.io.Locations;
import dev.parq.io.RangeReader;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.split.FileSplit;
import dev.parq.source.split.PrefixHash;

/**
 * Where the file of a split of appended lines is now. Log rotation renames a file within its
 * directory ({@code app.log} to {@code app.log.1}) between the scan that issued a split and the
 * reader that opens it; the file keeps its identity, by which it is found again, and the hash of
 * its first bytes tells it from a new file that got the inode of a deleted one.
 */
final class FollowedFiles {

    private FollowedFiles() {}

    /**
     * The split's path; or the file of its identity in the same directory; or, once that file is
     * gone or too short (copy-truncate rotation truncates it after copying it), a copy of it in the
     * same directory: a file that starts with the same bytes and holds the split's range. Null if
     * none of these is there.
     */
    static String whereNow(FileSplit split) throws IOException {
        if (split.fileKey().isEmpty() || !Locations.isLocal(split.path())) {
            return split.path();
        }
        Path path = Path.of(split.path());
        if (isTheFileOf(split, path) && holdsRange(split, path)) {
            return split.path();
        }
        Path directory = path.toAbsolutePath().getParent();
        List<Path> entries;
        try (Stream<Path> listing = Files.list(directory)) {
            entries = listing.toList();
        } catch (NoSuchFileException | UncheckedIOException gone) {
            return null;
        }
        for (Path entry : entries) {
            if (isTheFileOf(split, entry) && holdsRange(split, entry)) {
                return entry.toString();
            }
        }
        for (Path entry : entries) {
            if (split.prefixLength() > 0 && holdsRange(split, entry) && keyOf(entry).isPresent()
                    && startsAsTheFileOf(split, entry)) {
                return entry.toString();
            }
        }
        return null;
    }

    /**
     * Whether the file {@code opened} holds the split's range and starts as the split's file did:
     * the check of {@link #whereNow} made again on the file actually opened.
     */
    static boolean holds(FileSplit split, RangeReader opened) throws IOException {
        return opened.size() >= split.end() && (split.prefixLength() == 0 || startsAs(split, opened));
    }

    private static boolean holdsRange(FileSplit split, Path path) {
        try {
            return Files.size(path) >= split.end();
        } catch (IOException gone) {
            return false;
        }
    }

    /** Whether {@code path} has the split's identity and, where the split knows them, its first bytes. */
    private static boolean isTheFileOf(FileSplit split, Path path) throws IOException {
        if (!split.fileKey().equals(keyOf(path).orElse(null))) {
            return false;
        }
        return split.prefixLength() == 0 || startsAsTheFileOf(split, path);
    }

    /** Whether the first bytes of {@code path} hash as the split's file's did. */
    private static boolean startsAsTheFileOf(FileSplit split, Path path) throws IOException {
        try (RangeReader reader = RangeReader.open(path.toString())) {
            return startsAs(split, reader);
        } catch (NoSuchFileException gone) {
            return false;
        }
    }

    private static boolean startsAs(FileSplit split, RangeReader reader) throws IOException {
        byte[] prefix = new byte[split.prefixLength()];
        if (reader.read(0, prefix, 0, prefix.length) < prefix.length) {
            return false;
        }
        return PrefixHash.of(prefix, prefix.length) == split.prefixHash();
    }

    private static Optional<String> keyOf(Path path) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return attributes.isRegularFile() ? Optional.of(InputFile.keyOf(attributes)) : Optional.empty();
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        }
    }
}
