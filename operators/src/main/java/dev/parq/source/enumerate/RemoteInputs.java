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
 *
 * <p>A listing that follows objects whose keys sort in the order they land can be given a
 * {@link KeyFloor}: the folders below it are not listed, so that its cost is that of the recent
 * folders, not of the history. The floor is one key: it bounds the listing of the input it lies
 * under, and another input is listed whole.
 */
final class RemoteInputs {

    private RemoteInputs() {}

    static Listing expand(String input, boolean glob, KeyFloor floor) throws IOException {
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
                return new Listing(List.of(), 0);
            }
            if (!status.isDir()) {
                return new Listing(List.of(object(input, status)), 0);
            }
            return list(fs, authority, Path.of(pattern), Integer.MAX_VALUE, path -> true, floor);
        }
        Path base = InputFiles.globBase(pattern);
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        int depth = pattern.contains("**") ? Integer.MAX_VALUE : Path.of(pattern).getNameCount() - base.getNameCount();
        FileSystem fs = new org.apache.flink.core.fs.Path(authority + base).getFileSystem();
        return list(fs, authority, base, depth, matcher, floor);
    }

    private static InputFile object(String location, FileStatus status) {
        return new InputFile(location, status.getLen(), ObjectVersion.of(status), status.getModificationTime());
    }

    private static Listing list(FileSystem fs, String authority, Path root, int depth, PathMatcher matches,
            KeyFloor floor) throws IOException {
        Walk walk = new Walk(fs, authority, root, matches, floor);
        walk.folder(root, depth);
        walk.found.sort(Comparator.comparing(InputFile::path));
        return new Listing(walk.found, walk.folders);
    }

    /** One listing: folder by folder from the root, as the store lists a level at a time. */
    private static final class Walk {
        private final FileSystem fs;
        private final String authority;
        private final Path root;
        private final PathMatcher matches;
        private final KeyFloor floor;
        private final List<InputFile> found = new ArrayList<>();
        private int folders;

        Walk(FileSystem fs, String authority, Path root, PathMatcher matches, KeyFloor floor) {
            this.fs = fs;
            this.authority = authority;
            this.root = root;
            this.matches = matches;
            // A floor under another input's root says nothing of the order of this one's keys.
            String rootFolder = authority + root + (root.toString().endsWith("/") ? "" : "/");
            this.floor = floor.key().startsWith(rootFolder) ? floor : KeyFloor.NONE;
        }

        void folder(Path directory, int depth) throws IOException {
            folders++;
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
                    if (depth > 1 && !floor.passesOver(authority + path + "/")) {
                        folder(path, depth - 1);
                    }
                } else if (matches.matches(path)) {
                    found.add(object(authority + path, entry));
                }
            }
        }
    }
}
