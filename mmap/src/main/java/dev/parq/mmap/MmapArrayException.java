package dev.parq.mmap;

import java.nio.file.Path;

/** The one checked exception of {@link MmapArray} and {@link Npy}; {@link #kind()} says which failure. */
public final class MmapArrayException extends Exception {

    /** What went wrong, so that callers can react without parsing messages. */
    public enum Kind {
        /** The file could not be read, written or mapped. */
        IO,
        /** The file does not start with the expected magic bytes. */
        INVALID_MAGIC,
        /** The format version is not one this code reads. */
        VERSION_MISMATCH,
        /** The element type is unknown, unsupported, or not the one the caller expected. */
        DTYPE_MISMATCH,
        /** An array that is not C-contiguous (or a Fortran-order file) where C order is required. */
        NON_CONTIGUOUS,
        /** A write was asked of an array opened read-only. */
        READ_ONLY,
        /** More dimensions than the format allows. */
        TOO_MANY_DIMENSIONS,
        /** The file's size, the header's element count and the shape disagree. */
        SIZE_MISMATCH,
        /** Header fields that are self-contradictory or malformed, such as non-zero padding. */
        INVALID_HEADER
    }

    private final Kind kind;
    private final Path path;

    public MmapArrayException(Kind kind, Path path, String message) {
        this(kind, path, message, null);
    }

    public MmapArrayException(Kind kind, Path path, String message, Throwable cause) {
        super(kind + ": " + (path == null ? "" : path + ": ") + message, cause);
        this.kind = kind;
        this.path = path;
    }

    public Kind kind() {
        return kind;
    }

    /** The file concerned, or {@code null} when the failure is about an in-memory array. */
    public Path path() {
        return path;
    }
}
