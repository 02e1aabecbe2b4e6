package dev.parq.job.pipeline;

import java.io.IOException;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.UnsupportedFileSystemSchemeException;

import dev.parq.io.Locations;

/**
 * The one seam every input, output and state location goes through: a local path, or a URI whose
 * scheme has a Flink file system ({@code s3a://} with the S3 plugin, say). Anything else is a usage
 * error that names the scheme, never a local folder named after the URI.
 */
public final class Storage {

    /** How the AWS SDK begins the message of a request that did not reach its endpoint. */
    private static final String AWS_UNREACHABLE = "Unable to execute HTTP request: ";
    /**
     * How the AWS SDK tells a refused request (wrong keys, or keys without the permission), and the S3
     * error code after it; the SDK's own message is "Forbidden" or the server's long sentence.
     */
    private static final Pattern AWS_FORBIDDEN = Pattern.compile("Status Code: 403(?:[;,] Error Code: ([^;,)]+))?");

    private Storage() {}

    /**
     * {@code location} as a Flink path: a local one made absolute and normalised (and without a scheme),
     * a URI as it is.
     * {@code what} names it in the message ("output", "input", "--state").
     *
     * @throws ConversionException a usage error if the URI's scheme has no file system here
     */
    public static Path resolve(String location, String what) throws ConversionException {
        if (Locations.isLocal(location)) {
            try {
                java.nio.file.Path local = location.regionMatches(true, 0, "file:", 0, 5)
                        ? java.nio.file.Path.of(URI.create(location)) : java.nio.file.Path.of(location);
                // Without a scheme, so that messages name it as the user's shell does.
                return new Path(local.toAbsolutePath().normalize().toString());
            } catch (IllegalArgumentException e) {
                throw ConversionException.usage(what + " " + location + " is not a valid path: " + e.getMessage());
            }
        }
        Path path = new Path(location);
        fileSystem(path, what);
        return path;
    }

    /** Checks that {@code location} is local or of a scheme with a file system here. */
    public static void check(String location, String what) throws ConversionException {
        resolve(location, what);
    }

    /**
     * Checks that {@code location} is a local path; {@code what} says why it must be, and names it.
     *
     * @throws ConversionException a usage error naming the location otherwise
     */
    public static void requireLocal(String location, String what) throws ConversionException {
        if (!isLocal(resolve(location, what))) {
            throw ConversionException.usage(what + " " + location + " is not a local path");
        }
    }

    /** The Flink path of a local path. */
    public static Path of(java.nio.file.Path local) {
        return new Path(local.toUri());
    }

    /** {@code path} as a message names it: a local one as a shell does, without {@code file:}. */
    public static String display(Path path) {
        return isLocal(path) ? path.toUri().getPath() : path.toString();
    }

    /** Whether {@code path} is on this machine's file system. */
    public static boolean isLocal(Path path) {
        String scheme = path.toUri().getScheme();
        return scheme == null || scheme.equals("file");
    }

    /**
     * The file system of {@code path}.
     *
     * @throws ConversionException a usage error naming the scheme if there is none for it, or a
     *     failure if the file system cannot be set up (a bad setting of its plugin)
     */
    public static FileSystem fileSystem(Path path, String what) throws ConversionException {
        try {
            return path.getFileSystem();
        } catch (UnsupportedFileSystemSchemeException e) {
            String scheme = path.toUri().getScheme();
            throw ConversionException.usage(what + " " + path + ": no file system for the scheme '" + scheme + "'"
                    + (scheme.startsWith("s3") ? " (the S3 plugin flink-s3-fs-hadoop is not loaded: see README,"
                            + " Object storage)" : "; local paths, file: and the schemes of Flink's file system"
                            + " plugins are read and written"));
        } catch (IOException | RuntimeException e) {
            throw ConversionException.failed("cannot set up the file system of " + what + " " + path + ": "
                    + describe(e), e);
        }
    }

    /**
     * An I/O failure in one line: the innermost cause's message (an S3 client's is the one that says
     * what went wrong, and may run over several lines), without its class when it has a message.
     * Where the AWS SDK could not reach the endpoint, its own words, which name the endpoint; where the
     * server refused the request (HTTP 403), that access was denied and which settings hold the keys.
     */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        String unreachable = null;
        String forbidden = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            root = t;
            String message = t.getMessage();
            int at = message == null ? -1 : message.indexOf(AWS_UNREACHABLE);
            if (unreachable == null && at >= 0) {
                unreachable = message.substring(at + AWS_UNREACHABLE.length());
            }
            Matcher refused = message == null ? null : AWS_FORBIDDEN.matcher(message);
            if (forbidden == null && refused != null && refused.find()) {
                forbidden = refused.group(1) == null ? "HTTP 403" : refused.group(1).strip();
            }
        }
        if (forbidden != null) {
            return "access denied (" + forbidden + "): check the credentials (s3.access-key, s3.secret-key)"
                    + " and what they may access";
        }
        String message = unreachable != null ? unreachable : root.getMessage();
        if (message == null || message.isBlank()) {
            message = failure.getMessage() == null ? root.getClass().getSimpleName() : failure.getMessage();
        }
        return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
    }
}
