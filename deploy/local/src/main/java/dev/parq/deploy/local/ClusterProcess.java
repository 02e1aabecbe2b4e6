package dev.parq.deploy.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * One process of a local cluster, as recorded in its file under {@code DIR/run/}: its name
 * ({@code zookeeper}, {@code jobmanager}, {@code jobmanager-2} after a replacement,
 * {@code taskmanager-1}, ...), its pid and the loopback ports it was given. The record outlives the command that started the process, so that
 * {@code status} and {@code stop} find the process again.
 */
record ClusterProcess(String name, long pid, Map<String, Integer> ports) {

    static final String ZOOKEEPER = "zookeeper";
    static final String JOB_MANAGER = "jobmanager";
    static final String TASK_MANAGER = "taskmanager";
    private static final String SUFFIX = ".properties";
    private static final String PID = "pid";
    private static final String PORT_PREFIX = "port.";

    /** The name of the {@code number}th process of a role: the first JobManager has no number. */
    static String name(String role, int number) {
        return role.equals(JOB_MANAGER) && number == 1 ? JOB_MANAGER : role + "-" + number;
    }

    boolean isZooKeeper() {
        return name.equals(ZOOKEEPER);
    }

    boolean isJobManager() {
        return role().equals(JOB_MANAGER);
    }

    boolean isTaskManager() {
        return role().equals(TASK_MANAGER);
    }

    String role() {
        return roleOf(name);
    }

    /** {@code taskmanager} of {@code taskmanager-2}. */
    static String roleOf(String name) {
        int dash = name.lastIndexOf('-');
        return dash < 0 ? name : name.substring(0, dash);
    }

    /** 1 for {@code jobmanager} and {@code zookeeper}, N for {@code ROLE-N}. */
    int number() {
        int dash = name.lastIndexOf('-');
        return dash < 0 ? 1 : Integer.parseInt(name.substring(dash + 1));
    }

    /** ZooKeeper, then the JobManagers, then the TaskManagers, each role by number: the order of status and of start. */
    int startOrder() {
        return isZooKeeper() ? 0 : isJobManager() ? 1 : 2;
    }

    /**
     * The live process, if the pid still belongs to it: a pid of a process that died can be given
     * to another, so the command line must also name this cluster's configuration directory.
     */
    Optional<ProcessHandle> handle(Path confDir) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().commandLine()
                        .map(line -> line.contains(confDir.toString()))
                        .orElse(true));
    }

    /** {@code taskmanager-1 pid 1240 rpc 127.0.0.1:40123 data 127.0.0.1:40125}. */
    String statusLine(String host) {
        StringBuilder line = new StringBuilder(name).append(" pid ").append(pid);
        ports.forEach((role, port) -> line.append(' ').append(role).append(' ').append(host).append(':').append(port));
        return line.toString();
    }

    void write(Path runDir) throws IOException {
        Properties properties = new Properties();
        properties.setProperty(PID, Long.toString(pid));
        ports.forEach((role, port) -> properties.setProperty(PORT_PREFIX + role, Integer.toString(port)));
        try (Writer out = Files.newBufferedWriter(file(runDir, name), StandardCharsets.UTF_8)) {
            properties.store(out, "a process of the local cluster; removed when it is stopped");
        }
    }

    void forget(Path runDir) throws IOException {
        Files.deleteIfExists(file(runDir, name));
    }

    static boolean isRecord(Path file) {
        return file.getFileName().toString().endsWith(SUFFIX);
    }

    static ClusterProcess read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        Map<String, Integer> ports = new LinkedHashMap<>();
        // client and rest before rpc, rpc before data: the order the status lines show them in
        properties.stringPropertyNames().stream()
                .filter(key -> key.startsWith(PORT_PREFIX))
                .sorted(ClusterProcess::byPortRole)
                .forEach(key -> ports.put(key.substring(PORT_PREFIX.length()),
                        Integer.parseInt(properties.getProperty(key))));
        String fileName = file.getFileName().toString();
        return new ClusterProcess(fileName.substring(0, fileName.length() - SUFFIX.length()),
                Long.parseLong(properties.getProperty(PID)), ports);
    }

    private static int byPortRole(String a, String b) {
        return Integer.compare(portRank(a), portRank(b));
    }

    private static int portRank(String key) {
        return switch (key.substring(PORT_PREFIX.length())) {
            case "client", "rest" -> 0;
            case "rpc" -> 1;
            default -> 2;
        };
    }

    private static Path file(Path runDir, String name) {
        return runDir.resolve(name + SUFFIX);
    }
}
