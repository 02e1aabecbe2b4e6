package dev.parq.source.enumerate;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * One input file as found when the inputs were expanded: path, size, identity (device and inode of
 * a local file, the version of an object) and when it was last modified.
 */
public final class InputFile implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final long length;
    private final String fileKey;
    private final long modifiedMillis;

    public InputFile(String path, long length, String fileKey) {
        this(path, length, fileKey, 0);
    }

    public InputFile(String path, long length, String fileKey, long modifiedMillis) {
        this.path = path;
        this.length = length;
        this.fileKey = fileKey == null ? "" : fileKey;
        this.modifiedMillis = modifiedMillis;
    }

    public static InputFile of(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        return new InputFile(path.toString(), attributes.size(), keyOf(attributes),
                attributes.lastModifiedTime().toMillis());
    }

    /** Device and inode as the file system reports them, or "" where it has no key. */
    public static String keyOf(BasicFileAttributes attributes) {
        Object key = attributes.fileKey();
        return key == null ? "" : key.toString();
    }

    public String path() {
        return path;
    }

    public long length() {
        return length;
    }

    public String fileKey() {
        return fileKey;
    }

    /** When the file was last modified (an object: when its upload completed), as its file system says; 0 if unknown. */
    public long modifiedMillis() {
        return modifiedMillis;
    }

    @Override
    public String toString() {
        return path + " (" + length + " bytes)";
    }
}
