package dev.parq.source.reader;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

import dev.parq.io.InputChangedException;
import dev.parq.io.RangeReader;
import dev.parq.source.split.FileSplit;

/**
 * Opens the file of a split that was cut from a listing (a conversion's, or an object's): it must
 * still be the file that was cut, by its identity (device and inode, or an object's version), and
 * at least as long as the split's end.
 */
final class ListedFiles {

    private ListedFiles() {}

    /** @throws InputChangedException naming the file, if it is gone, another, or shorter */
    static RangeReader open(FileSplit split) throws IOException {
        RangeReader opened;
        try {
            opened = RangeReader.open(split.path());
        } catch (NoSuchFileException gone) {
            throw new InputChangedException("input file " + split.path() + " was deleted or renamed while it was being"
                    + " read (before byte " + split.offset() + ")");
        }
        try {
            String key = opened.fileKey();
            if (!split.fileKey().isEmpty() && !split.fileKey().equals(key)) {
                throw new InputChangedException("input file " + split.path() + " was replaced while it was being read"
                        + " (it was " + split.fileKey() + ", it is now " + key + ")");
            }
            long size = opened.size();
            if (size < split.end()) {
                throw InputChangedException.truncated(split.path(), split.offset(), split.end(), size);
            }
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }
}
