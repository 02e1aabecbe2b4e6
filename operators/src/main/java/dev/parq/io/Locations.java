package dev.parq.io;

import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** Whether a location names a local file, which is mapped, or a URI of another file system. */
public final class Locations {

    /** A URI scheme as RFC 3986 spells it, followed by ':'; one letter is a drive, not a scheme. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");

    private Locations() {}

    /** Whether {@code location} is a path of this machine's file system or a {@code file:} URI. */
    public static boolean isLocal(String location) {
        return !SCHEME.matcher(location).find() || location.regionMatches(true, 0, "file:", 0, 5);
    }

    /** The local path {@code location} names. */
    static Path localPath(String location) {
        return location.regionMatches(true, 0, "file:", 0, 5) ? Path.of(URI.create(location)) : Path.of(location);
    }
}
