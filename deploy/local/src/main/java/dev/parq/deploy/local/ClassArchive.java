package dev.parq.deploy.local;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The class-data sharing archives of a cluster's JobManagers and TaskManagers, in {@code DIR/cds/}:
 * a cold Flink process spends much of its first job's CPU loading and linking Flink's and parq's
 * classes; one that maps an archive of them does not.
 *
 * <p>A process started without an archive of its kind is told to keep what a dump needs
 * ({@code -XX:+RecordDynamicDumpInfo}); when the cluster is stopped after it has finished a job,
 * before the processes are signalled, each such process writes the classes it has loaded to a file
 * of its own ({@code jcmd PID VM.cds dynamic_dump}), which then takes the archive's name, so that no
 * process ever maps a half-written file and an archive holds the classes a job loads. A stop
 * without a finished job records nothing. Later processes of the same JDK build, main class, JVM
 * options and class path (each jar's path, size and modification time, which the JVM checks) map it:
 * the archive's name is a digest of them, so a rebuilt jar or another JDK records anew instead of
 * mapping an archive the JVM would refuse. Should the JVM refuse one all the same, it starts
 * without, silently ({@code -Xlog:cds=off}).
 */
final class ClassArchive {

    /** Set to anything, the cluster's processes neither record nor map archives. */
    static final String DISABLE_VARIABLE = "PARQ_NO_CDS";
    private static final String SUFFIX = ".jsa";
    private static final String PENDING = ".pending";
    /** Options a user may have given the JVM that decide its class-data sharing themselves. */
    private static final List<String> OWN_CHOICE = List.of("-Xshare", "-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit",
            "-XX:AOTCache", "-XX:AOTMode", "-XX:AOTCacheOutput", "-XX:-UseSharedSpaces", "-XX:+RecordDynamicDumpInfo");
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    private static final Duration DUMP_LIMIT = Duration.ofSeconds(60);

    private final Path dir;
    private final boolean enabled;

    ClassArchive(ClusterDir clusterDir, boolean enabled) {
        this.dir = clusterDir.path().resolve("cds");
        this.enabled = enabled;
    }

    /** Whether the environment leaves archives on: {@link #DISABLE_VARIABLE} unset. */
    static boolean enabledByEnvironment() {
        return System.getenv(DISABLE_VARIABLE) == null;
    }

    /**
     * The options that make process {@code name} ({@code taskmanager-2}) map the archive of its
     * kind, or ready it to record one if there is none; none when disabled or when {@code jvmOptions}
     * choose for themselves. {@code classPath}: the directories whose jars the process loads from, in order.
     */
    List<String> options(String name, String role, String mainClass, List<String> jvmOptions, List<Path> classPath)
            throws IOException {
        if (!enabled || jvmOptions.stream().anyMatch(option -> OWN_CHOICE.stream().anyMatch(option::startsWith))) {
            return List.of();
        }
        Path archive = dir.resolve(role + "-jdk" + Runtime.version() + "-" + digest(mainClass, jvmOptions, classPath) + SUFFIX);
        List<String> options = new ArrayList<>();
        Files.createDirectories(dir);
        if (Files.isRegularFile(archive)) {
            options.add("-XX:SharedArchiveFile=" + archive);
            Files.deleteIfExists(pending(name));
        } else {
            options.add("-XX:+RecordDynamicDumpInfo");
            Files.writeString(pending(name), archive.getFileName().toString(), StandardCharsets.UTF_8);
        }
        options.addAll(QUIET);
        return options;
    }

    /**
     * Before a stop: one of {@code running} (by name) of each kind that was started to record
     * writes its archive, the kinds side by side, if {@code ranJob} (asked only then); the pending
     * records go either way.
     */
    void record(Map<String, ProcessHandle> running, BooleanSupplier ranJob) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Map<Path, Process> dumps = new LinkedHashMap<>();
        Map<Path, Path> archives = new LinkedHashMap<>();
        Boolean finishedAJob = null;
        for (Map.Entry<String, ProcessHandle> process : running.entrySet()) {
            Path pending = pending(process.getKey());
            if (!Files.isRegularFile(pending)) {
                continue;
            }
            Path archive = dir.resolve(Files.readString(pending, StandardCharsets.UTF_8).strip());
            Files.delete(pending);
            // One process of each kind records: the others loaded the same classes.
            if (Files.exists(archive) || archives.containsValue(archive) || !Files.isExecutable(jcmd())) {
                continue;
            }
            if (finishedAJob == null) {
                finishedAJob = ranJob.getAsBoolean();
            }
            if (finishedAJob) {
                Path recording = archive.resolveSibling(archive.getFileName() + "." + process.getKey() + ".part");
                Files.deleteIfExists(recording);
                dumps.put(recording, new ProcessBuilder(jcmd().toString(), Long.toString(process.getValue().pid()),
                        "VM.cds", "dynamic_dump", recording.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start());
                archives.put(recording, archive);
            }
        }
        for (Map.Entry<Path, Process> dump : dumps.entrySet()) {
            Path recording = dump.getKey();
            if (finished(dump.getValue()) && Files.isRegularFile(recording) && Files.size(recording) > 0) {
                replace(recording, archives.get(recording));
                deleteOthersOfItsKind(archives.get(recording));
            } else {
                Files.deleteIfExists(recording);
            }
        }
    }

    private static boolean finished(Process dump) {
        try {
            if (dump.waitFor(DUMP_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return dump.exitValue() == 0;
            }
            dump.destroyForcibly();
            return false;
        } catch (InterruptedException e) {
            dump.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Path pending(String name) {
        return dir.resolve(name + PENDING);
    }

    /** The cluster's processes run on this JVM's JDK ({@link ProcessLauncher#javaExecutable}). */
    private static Path jcmd() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd");
    }

    /** Those of the same role and JDK for an earlier build or configuration: the JVM would refuse them. */
    private void deleteOthersOfItsKind(Path archive) throws IOException {
        String name = archive.getFileName().toString();
        String kind = name.substring(0, name.lastIndexOf('-') + 1);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path other : files.filter(file -> !file.equals(archive)).toList()) {
                String otherName = other.getFileName().toString();
                if (otherName.startsWith(kind) && otherName.endsWith(SUFFIX)) {
                    Files.deleteIfExists(other);
                }
            }
        }
    }

    /** Processes started meanwhile see the old archive or the new one, never part of one. */
    private static void replace(Path recording, Path archive) throws IOException {
        try {
            Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(recording, archive, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Of what the JVM checks before it maps an archive, and what decides which classes a process loads. */
    private static String digest(String mainClass, List<String> jvmOptions, List<Path> classPath) {
        StringBuilder identity = new StringBuilder(System.getProperty("java.home")).append('\n')
                .append(Runtime.version()).append('\n').append(mainClass).append('\n');
        jvmOptions.forEach(option -> identity.append(option).append('\n'));
        for (Path directory : classPath) {
            identity.append(directory).append(File.separator).append('*').append('\n');
            for (Path jar : jars(directory)) {
                try {
                    BasicFileAttributes attributes = Files.readAttributes(jar, BasicFileAttributes.class);
                    identity.append(jar).append(' ').append(attributes.size()).append(' ')
                            .append(attributes.lastModifiedTime().toMillis()).append('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> jars(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
