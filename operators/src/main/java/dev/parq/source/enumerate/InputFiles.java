package dev.parq.source.enumerate;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parq.io.Locations;
import dev.parq.io.StandardInput;

/**
 * Expands the inputs a user names (files, directories, globs) into the files to convert, sorted
 * by path within each input and without duplicates.
 *
 * <p>Directories are walked recursively; as in Flink's file source, entries whose name starts with
 * {@code .} or {@code _} are hidden (in-progress files, {@code _SUCCESS} markers) and skipped.
 * {@code -} is standard input, of unknown length (0 here). A URI of another file system ({@code s3a://})
 * is expanded by listing it through Flink's file system ({@link RemoteInputs}).
 */
public final class InputFiles {

    private InputFiles() {}

    /**
     * @throws InputNotFoundException when an input names nothing
     */
    public static List<InputFile> expand(List<String> inputs) throws IOException {
        Map<String, InputFile> files = new LinkedHashMap<>();
        for (String input : inputs) {
            if (StandardInput.names(input)) {
                files.putIfAbsent(input, new InputFile(input, 0, ""));
                continue;
            }
            List<InputFile> found = !Locations.isLocal(input)
                    ? RemoteInputs.expand(input, isGlob(input), KeyFloor.NONE).objects()
                    : isGlob(input) ? glob(input) : walk(Path.of(input));
            if (found.isEmpty()) {
                throw new InputNotFoundException(
                        isGlob(input) ? "no file matches " + input : "input not found: " + input);
            }
            for (InputFile file : found) {
                files.putIfAbsent(file.path(), file);
            }
        }
        return new ArrayList<>(files.values());
    }

    /**
     * The objects a prefix or glob of an object store names now (none is no error), the folders
     * {@code floor} passes over left out.
     */
    public static Listing objects(String input, KeyFloor floor) throws IOException {
        return RemoteInputs.expand(input, isGlob(input), floor);
    }

    public static long totalBytes(List<InputFile> files) {
        return files.stream().mapToLong(InputFile::length).sum();
    }

    static boolean isGlob(String input) {
        return input.indexOf('*') >= 0 || input.indexOf('?') >= 0 || input.indexOf('[') >= 0
                || input.indexOf('{') >= 0;
    }

    private static List<InputFile> walk(Path root) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(root, BasicFileAttributes.class);
        } catch (NoSuchFileException missing) {
            return List.of();
        }
        if (!attributes.isDirectory()) {
            return List.of(new InputFile(root.toString(), attributes.size(), InputFile.keyOf(attributes)));
        }
        return list(root, Integer.MAX_VALUE, path -> true);
    }

    private static List<InputFile> glob(String pattern) throws IOException {
        Path base = globBase(pattern);
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        // A star matches within one folder level; only ** reaches deeper than the pattern's levels.
        int depth = pattern.contains("**") ? Integer.MAX_VALUE
                : Path.of(pattern).getNameCount() - (base.toString().isEmpty() ? 0 : base.getNameCount());
        return list(base, depth, matcher::matches);
    }

    /**
     * The regular files under {@code root} (links followed to them) within {@code depth} levels
     * that {@code matches} takes, hidden ones left out, in path order. The files are looked at
     * while other processes create and delete them: one deleted after its folder was read is
     * simply not there, as if the folder had been read a moment later. Taking the failure to
     * stat it for the walk's failure would make every file of the folder seem gone at once.
     */
    private static List<InputFile> list(Path root, int depth, PathMatcher matches) throws IOException {
        List<InputFile> found = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        Files.walkFileTree(root, Set.of(), depth, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
                return directory.equals(root) || !isHidden(root, directory)
                        ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (isHidden(root, file) || !matches.matches(file)) {
                    return FileVisitResult.CONTINUE;
                }
                BasicFileAttributes target = attributes;
                if (attributes.isSymbolicLink()) {
                    try {
                        target = Files.readAttributes(file, BasicFileAttributes.class);
                    } catch (NoSuchFileException dangling) {
                        return FileVisitResult.CONTINUE;
                    }
                }
                if (target.isRegularFile()) {
                    found.add(new InputFile(file.toString(), target.size(), InputFile.keyOf(target)));
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
                if (failure instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw failure;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                if (failure != null && !(failure instanceof NoSuchFileException)) {
                    throw failure;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort(Comparator.comparing(InputFile::path));
        return found;
    }

    /** The longest leading part of a glob without wildcards: where the walk starts. */
    static Path globBase(String pattern) {
        int firstWildcard = pattern.length();
        for (char c : new char[] {'*', '?', '[', '{'}) {
            int at = pattern.indexOf(c);
            if (at >= 0) {
                firstWildcard = Math.min(firstWildcard, at);
            }
        }
        int slash = pattern.lastIndexOf('/', firstWildcard);
        if (slash < 0) {
            return Path.of("");
        }
        return Path.of(slash == 0 ? "/" : pattern.substring(0, slash));
    }

    static boolean isHidden(Path root, Path path) {
        for (Path part : root.relativize(path)) {
            String name = part.toString();
            if (name.startsWith(".") || name.startsWith("_")) {
                return true;
            }
        }
        return false;
    }
}
