package dev.parq.source.enumerate;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;

import dev.parq.io.ObjectVersion;

/**
 * The files a URI input names on a file system other than the local one (an object store): a file,
 * a directory (a prefix) listed recursively, or a glob over the path, listed from its longest part
 * without wildcards. The same rules as for local inputs: hidden names ('.', '_') are skipped, a star
 * matches within one level, and the files come in path order.
 */
final class RemoteInputs {

    private RemoteInputs() {}

    static List<InputFile> expand(String input, boolean glob) throws IOException {
        URI uri = URI.create(input.replace(" ", "%20"));
        String authority = uri.getScheme() + "://" + (uri.getAuthority() == null ? "" : uri.getAuthority());
        String pattern = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
        if (!glob) {
            org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(input);
            FileSystem fs = root.getFileSystem();
            FileStatus status;
            try {
                status = fs.getFileStatus(root);
            } catch (FileNotFoundException missing) {
                return List.of();
            }
            if (!status.isDir()) {
                return List.of(object(input, status));
            }
            return list(fs, authority, Path.of(pattern), Integer.MAX_VALUE, path -> true);
        }
        Path base = InputFiles.globBase(pattern);
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        int depth = pattern.contains("**") ? Integer.MAX_VALUE : Path.of(pattern).getNameCount() - base.getNameCount();
        FileSystem fs = new org.apache.flink.core.fs.Path(authority + base).getFileSystem();
        return list(fs, authority, base, depth, matcher);
    }

    private static InputFile object(String location, FileStatus status) {
        return new InputFile(location, status.getLen(), ObjectVersion.of(status), status.getModificationTime());
    }

    private static List<InputFile> list(FileSystem fs, String authority, Path root, int depth, PathMatcher matches)
            throws IOException {
        List<InputFile> found = new ArrayList<>();
        walk(fs, authority, root, root, depth, matches, found);
        found.sort(Comparator.comparing(InputFile::path));
        return found;
    }

    private static void walk(FileSystem fs, String authority, Path root, Path directory, int depth, PathMatcher matches,
            List<InputFile> found) throws IOException {
        FileStatus[] entries;
        try {
            entries = fs.listStatus(new org.apache.flink.core.fs.Path(authority + directory));
        } catch (FileNotFoundException missing) {
            return;
        }
        if (entries == null) {
            return;
        }
        for (FileStatus entry : entries) {
            Path path = Path.of(entry.getPath().toUri().getPath());
            if (InputFiles.isHidden(root, path)) {
                continue;
            }
            if (entry.isDir()) {
                if (depth > 1) {
                    walk(fs, authority, root, path, depth - 1, matches, found);
                }
            } else if (matches.matches(path)) {
                found.add(object(authority + path, entry));
            }
        }
    }
}
