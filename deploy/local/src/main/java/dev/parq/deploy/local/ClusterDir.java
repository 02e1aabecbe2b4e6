package dev.parq.deploy.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The directory a cluster lives in: {@code conf/} (its configuration), {@code log/}, {@code tmp/},
 * {@code run/} (a record per process), {@code plugins/}, {@code lib/} (the jar every process has on
 * its class path), {@code cds/} (the processes' class-data archives, {@link ClassArchive}) and,
 * with high availability, {@code ha/} and {@code zookeeper/}; Flink keeps an
 * application's jar in {@code artifacts/}. What runs is known from {@code run/} alone, so that any
 * command finds the processes another one started.
 */
final class ClusterDir {

    private static final int LOG_TAIL_LINES = 40;

    private final Path dir;

    ClusterDir(Path dir) {
        this.dir = dir.toAbsolutePath();
    }

    Path path() {
        return dir;
    }

    Path conf() {
        return dir.resolve("conf");
    }

    Path logs() {
        return dir.resolve("log");
    }

    Path run() {
        return dir.resolve("run");
    }

    /** What every process has on its class path after Flink's lib/. */
    Path lib() {
        return dir.resolve("lib");
    }

    /**
     * Empties what an earlier cluster of the directory left and copies {@code jar}, if any, into
     * {@code lib/}. ha/, zookeeper/ and artifacts/ go too: a new cluster must not take over the jobs
     * or jars of an old one. cds/ stays: the copy keeps the jar's modification time, so that a
     * class-data archive recorded by an earlier cluster of the same build still matches it.
     *
     * @return the copy of the jar, or null without one
     */
    Path prepare(Path jar) throws IOException {
        for (String owned : List.of("conf", "log", "tmp", "run", "ha", "zookeeper", "artifacts", "lib")) {
            deleteRecursively(dir.resolve(owned));
        }
        for (String owned : List.of("conf", "log", "tmp", "run", "plugins", "lib")) {
            Files.createDirectories(dir.resolve(owned));
        }
        if (jar == null) {
            return null;
        }
        Path copy = lib().resolve(jar.getFileName());
        Files.copy(jar, copy, StandardCopyOption.COPY_ATTRIBUTES);
        return copy;
    }

    /** The processes on record: ZooKeeper first, then the JobManagers, then the TaskManagers, each by number. */
    List<ClusterProcess> processes() throws IOException {
        if (!Files.isDirectory(run())) {
            return List.of();
        }
        List<ClusterProcess> processes = new ArrayList<>();
        try (Stream<Path> files = Files.list(run())) {
            for (Path file : files.filter(ClusterProcess::isRecord).toList()) {
                processes.add(ClusterProcess.read(file));
            }
        }
        processes.sort(Comparator.comparingInt(ClusterProcess::startOrder).thenComparingInt(ClusterProcess::number));
        return processes;
    }

    /** The live process of a record, if it still runs. */
    Optional<ProcessHandle> handle(ClusterProcess process) {
        return process.handle(conf());
    }

    boolean isAlive(ClusterProcess process) {
        return handle(process).isPresent();
    }

    /** The names of the processes on record that are not running. */
    List<String> notRunning() throws IOException {
        return processes().stream()
                .filter(process -> !isAlive(process))
                .map(ClusterProcess::name)
                .toList();
    }

    /** The newest JobManager that is running, else the newest recorded. */
    ClusterProcess currentJobManager() throws IOException {
        List<ClusterProcess> jobManagers = processes().stream().filter(ClusterProcess::isJobManager).toList();
        if (jobManagers.isEmpty()) {
            throw new IllegalStateException("no JobManager recorded in " + run());
        }
        return jobManagers.stream()
                .filter(this::isAlive)
                .reduce((older, newer) -> newer)
                .orElse(jobManagers.get(jobManagers.size() - 1));
    }

    /** The number the next process of {@code role} gets: one more than any on record. */
    int nextNumber(String role) throws IOException {
        return processes().stream()
                .filter(process -> process.role().equals(role))
                .mapToInt(ClusterProcess::number)
                .max().orElse(0) + 1;
    }

    /** The last lines of every log of the cluster and its clients, for failure messages. */
    String diagnostics() {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.list(logs())) {
            files.sorted().forEach(file -> text.append(tail(file)));
        } catch (IOException e) {
            text.append("\n--- ").append(logs()).append(": unreadable: ").append(e).append('\n');
        }
        return text.toString();
    }

    private static String tail(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "\n--- " + file + ": unreadable: " + e + "\n";
        }
        List<String> last = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
        return "\n--- " + file + " (last " + last.size() + " of " + lines.size() + " lines)\n" + String.join("\n", last) + "\n";
    }

    static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
