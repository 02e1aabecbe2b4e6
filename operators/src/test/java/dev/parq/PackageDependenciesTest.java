package dev.parq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The stages depend on each other one way only: no cycle among the top-level packages of the
 * operators (source, parse, schema, sink, batch and the leaves they share), read from the imports
 * of the main sources.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.parq\\.([a-z]+)\\.", Pattern.MULTILINE);

    @Test
    void theTopLevelPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        assertTrue(uses.keySet().containsAll(List.of("source", "parse", "schema", "sink", "batch")), uses.toString());
        for (String start : uses.keySet()) {
            List<String> cycle = cycleThrough(start, uses);
            assertEquals(List.of(), cycle, "a package cycle: " + String.join(" -> ", cycle));
        }
    }

    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        Path root = SOURCES.resolve("dev").resolve("parq");
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String top = root.relativize(file).getName(0).toString();
                Set<String> used = uses.computeIfAbsent(top, k -> new TreeSet<>());
                Matcher imported = IMPORT.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (imported.find()) {
                    if (!imported.group(1).equals(top)) {
                        used.add(imported.group(1));
                    }
                }
            }
        }
        return uses;
    }

    /** A path from {@code start} back to itself, or an empty list. */
    private static List<String> cycleThrough(String start, Map<String, Set<String>> uses) {
        Deque<List<String>> paths = new ArrayDeque<>();
        paths.add(List.of(start));
        Set<String> seen = new TreeSet<>();
        while (!paths.isEmpty()) {
            List<String> path = paths.poll();
            for (String next : uses.getOrDefault(path.get(path.size() - 1), Set.of())) {
                List<String> longer = new ArrayList<>(path);
                longer.add(next);
                if (next.equals(start)) {
                    return longer;
                }
                if (seen.add(next)) {
                    paths.add(longer);
                }
            }
        }
        return List.of();
    }
}
