package dev.parq.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.source.enumerate.InputFile;
import dev.parq.source.split.FileSplit;
import dev.parq.source.split.PrefixHash;

/** A split of appended lines finds its file again after a rename rotation, by identity. */
class FollowedFilesTest {

    @TempDir
    Path dir;

    @Test
    void aFileRenamedSinceItsSplitWasIssuedIsFoundUnderItsNewName() throws IOException {
        Path log = Files.writeString(dir.resolve("app.log"), "{\"seq\":1}\n");
        FileSplit split = split(log);
        assertEquals(log.toString(), FollowedFiles.whereNow(split));
        Path rotated = Files.move(log, dir.resolve("app.log.1"));
        Files.writeString(log, "{\"seq\":2}\n");
        assertEquals(rotated.toString(), FollowedFiles.whereNow(split));
    }

    /**
     * The file system may give a new file the inode of one just deleted: the first bytes tell them
     * apart.
     */
    @Test
    void aFileGoneIsNowhere() throws IOException {
        Path log = Files.writeString(dir.resolve("app.log"), "{\"seq\":1}\n");
        FileSplit split = split(log);
        Files.delete(log);
        Files.writeString(dir.resolve("other.log"), "{\"seq\":2}\n");
        assertNull(FollowedFiles.whereNow(split));
    }

    /** Copy-truncate rotation truncated the file after copying it: its lines are read from the copy. */
    @Test
    void aFileTruncatedSinceItsSplitWasIssuedIsReadFromItsCopy() throws IOException {
        Path log = Files.writeString(dir.resolve("app.log"), "{\"seq\":1}\n");
        FileSplit split = split(log);
        Files.writeString(dir.resolve("app.log.2"), "{\"seq\":1");
        Path copy = Files.copy(log, dir.resolve("app.log.1"));
        Files.writeString(log, "");
        assertEquals(copy.toString(), FollowedFiles.whereNow(split));
        Files.delete(copy);
        assertNull(FollowedFiles.whereNow(split), "no copy holds the split's bytes");
    }

    private static FileSplit split(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return new FileSplit("a", file.toString(), InputFile.of(file).fileKey(), 0, bytes.length, 0, bytes.length,
                PrefixHash.of(bytes, bytes.length));
    }
}
