package dev.parq.source.enumerate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Expands the inputs a user names (files, directories, globs) into the files to convert, sorted
 * by path within each input and without duplicates.
 *
 * <p>Directories are walked recursively; as in Flink's file source, entries whose name starts with
 * {@code .} or {@code _} are hidden (in-progress files, {@code _SUCCESS} markers) and skipped.
 */
public final class InputFiles {

    private InputFiles() {}

    /**
     * @throws InputNotFoundException when an input names nothing
     */
    public static List<InputFile> expand(List<String> inputs) throws IOException {
        Map<String, InputFile> files = new LinkedHashMap<>();
        for (String input : inputs) {
            List<Path> found = isGlob(input) ? glob(input) : walk(Path.of(input));
            if (found.isEmpty()) {
                throw new InputNotFoundException(
                        isGlob(input) ? "no file matches " + input : "input not found: " + input);
            }
            for (Path path : found) {
                InputFile file = InputFile.of(path);
                files.putIfAbsent(file.path(), file);
            }
        }
        return new ArrayList<>(files.values());
    }

    public static long totalBytes(List<InputFile> files) {
        return files.stream().mapToLong(InputFile::length).sum();
    }

    private static boolean isGlob(String input) {
        return input.indexOf('*') >= 0 || input.indexOf('?') >= 0 || input.indexOf('[') >= 0
                || input.indexOf('{') >= 0;
    }

    private static List<Path> walk(Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        if (!Files.isDirectory(root)) {
            return List.of(root);
        }
        try (Stream<Path> entries = Files.walk(root)) {
            return entries.filter(p -> !p.equals(root))
                    .filter(p -> !isHidden(root, p))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static List<Path> glob(String pattern) throws IOException {
        Path base = globBase(pattern);
        if (!Files.isDirectory(base)) {
            return List.of();
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        try (Stream<Path> entries = Files.walk(base)) {
            return entries.filter(Files::isRegularFile)
                    .filter(matcher::matches)
                    .filter(p -> !isHidden(base, p))
                    .sorted()
                    .toList();
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return List.of();
            }
            throw e.getCause();
        }
    }

    /** The longest leading part of a glob without wildcards: where the walk starts. */
    private static Path globBase(String pattern) {
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

    private static boolean isHidden(Path root, Path path) {
        for (Path part : root.relativize(path)) {
            String name = part.toString();
            if (name.startsWith(".") || name.startsWith("_")) {
                return true;
            }
        }
        return false;
    }
}
