package dev.parq.job.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A Flink standalone session cluster of real processes: one JobManager JVM and one TaskManager
 * JVM, started the way flink-dist's {@code bin/} scripts start them (same main classes, memory
 * flags computed by Flink's own process-memory utilities, config directory, log files), and Flink's
 * command line client run as a third process. Everything listens on 127.0.0.1 only.
 *
 * <p>{@code lib} holds the jars a Flink distribution's {@code lib/} would (see job/pom.xml); the
 * conf, log and tmp directories are created under {@code home}, and the logs are left there.
 */
public final class StandaloneCluster implements AutoCloseable {

    /** Arrow reaches off-heap memory through Unsafe and java.nio internals, in every Flink JVM. */
    private static final String JAVA_OPTS = "--add-opens=java.base/java.nio=ALL-UNNAMED"
            + " --add-opens=java.base/java.lang=ALL-UNNAMED"
            + " --add-opens=java.base/java.util=ALL-UNNAMED"
            + " --add-opens=java.base/sun.nio.ch=ALL-UNNAMED";

    private static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String CLI_MAIN = "org.apache.flink.client.cli.CliFrontend";
    private static final String LOOPBACK = "127.0.0.1";
    private static final int SLOTS = 2;
    private static final int LOG_TAIL_LINES = 40;
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path lib;
    private final Path conf;
    private final Path logs;
    private final Path plugins;
    private final int restPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Cluster and client processes still to stop; the shutdown hook reads it from its own thread. */
    private final List<Process> processes = new CopyOnWriteArrayList<>();
    private final Thread killOnExit = new Thread(this::killAll, "stop-flink-standalone-cluster");
    private Process jobManager;
    private Process taskManager;
    private int cliRuns;

    /** What a {@code flink} command printed and how it exited. */
    public record CliResult(int exitCode, String out, String err) {}

    private StandaloneCluster(Path lib, Path home) throws IOException {
        this.lib = lib.toAbsolutePath();
        Path root = home.toAbsolutePath();
        this.conf = Files.createDirectories(root.resolve("conf"));
        this.logs = Files.createDirectories(root.resolve("log"));
        this.plugins = Files.createDirectories(root.resolve("plugins"));
        Path tmp = Files.createDirectories(root.resolve("tmp"));
        this.restPort = freePort();
        writeConfig(freePort(), tmp);
    }

    /**
     * Starts a JobManager and a TaskManager and waits until the TaskManager has registered its
     * slots, or fails with the tail of their logs. {@code home} is emptied first, so that the logs
     * left in it are this run's.
     */
    public static StandaloneCluster start(Path lib, Path home, Duration timeout) throws IOException, InterruptedException {
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("no Flink lib directory at " + lib.toAbsolutePath()
                    + "; the pre-integration-test phase of job/pom.xml assembles it");
        }
        deleteRecursively(home);
        StandaloneCluster cluster = new StandaloneCluster(lib, home);
        Runtime.getRuntime().addShutdownHook(cluster.killOnExit);
        try {
            cluster.startProcesses();
            cluster.awaitSlots(timeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public int restPort() {
        return restPort;
    }

    public long jobManagerPid() {
        return jobManager.pid();
    }

    public long taskManagerPid() {
        return taskManager.pid();
    }

    public boolean isRunning() {
        return jobManager.isAlive() && taskManager.isAlive();
    }

    /** GET on the cluster's REST API, as JSON. */
    public JsonNode rest(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://" + LOOPBACK + ":" + restPort + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /**
     * Runs {@code flink ARGS} through Flink's CLI main class in its own JVM, as {@code bin/flink}
     * does, and waits for it. The client's own log goes to {@code log/client-N.log}.
     */
    public CliResult flink(Duration timeout, String... args) throws IOException, InterruptedException {
        int run = ++cliRuns;
        Path out = logs.resolve("client-" + run + ".out");
        Path err = logs.resolve("client-" + run + ".err");
        List<String> command = javaCommand(List.of("-Xmx512m"), logs.resolve("client-" + run + ".log"));
        command.add(CLI_MAIN);
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        environment(builder);
        Process client = builder.start();
        processes.add(client);
        try {
            if (!client.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(client);
                throw new IllegalStateException("flink " + String.join(" ", args) + " did not finish within "
                        + timeout + "\n" + diagnostics());
            }
        } finally {
            processes.remove(client);
        }
        return new CliResult(client.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The last lines of every log of the cluster and its clients, for failure messages. */
    public String diagnostics() {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.list(logs)) {
            files.sorted().forEach(file -> text.append(tail(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    @Override
    public void close() {
        Runtime.getRuntime().removeShutdownHook(killOnExit);
        killAll();
    }

    private void writeConfig(int rpcPort, Path tmp) throws IOException {
        Map<String, String> config = Map.ofEntries(
                Map.entry("jobmanager.rpc.address", LOOPBACK),
                Map.entry("jobmanager.rpc.port", Integer.toString(rpcPort)),
                Map.entry("jobmanager.bind-host", LOOPBACK),
                Map.entry("jobmanager.memory.process.size", "1g"),
                Map.entry("taskmanager.host", LOOPBACK),
                Map.entry("taskmanager.bind-host", LOOPBACK),
                Map.entry("taskmanager.memory.process.size", "1536m"),
                Map.entry("taskmanager.numberOfTaskSlots", Integer.toString(SLOTS)),
                Map.entry("parallelism.default", Integer.toString(SLOTS)),
                Map.entry("rest.address", LOOPBACK),
                Map.entry("rest.bind-address", LOOPBACK),
                Map.entry("rest.port", Integer.toString(restPort)),
                Map.entry("io.tmp.dirs", tmp.toString()),
                Map.entry("env.java.opts.all", JAVA_OPTS));
        StringBuilder yaml = new StringBuilder("# Written by StandaloneCluster for one test run.\n");
        config.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> yaml.append(e.getKey()).append(": \"").append(e.getValue()).append("\"\n"));
        Files.writeString(conf.resolve(GlobalConfiguration.FLINK_CONF_FILENAME), yaml);
        Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = MainAppender",
                "appender.main.name = MainAppender",
                "appender.main.type = File",
                "appender.main.fileName = ${sys:log.file}",
                "appender.main.layout.type = PatternLayout",
                "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} [%t] - %m%n",
                ""));
    }

    private void startProcesses() throws IOException {
        Configuration config = GlobalConfiguration.loadConfiguration(conf.toString());

        // bin/jobmanager.sh: JVM memory flags and the derived memory settings from BashJavaUtils.
        JobManagerProcessSpec jobManagerSpec = JobManagerProcessUtils.processSpecFromConfig(config);
        jobManager = launch("jobmanager", JOB_MANAGER_MAIN,
                JobManagerProcessUtils.generateJvmParametersStr(jobManagerSpec, config),
                JobManagerProcessUtils.generateDynamicConfigsStr(jobManagerSpec));

        // bin/taskmanager.sh: the TaskManager refuses to start without its memory components set.
        TaskExecutorProcessSpec taskManagerSpec = TaskExecutorProcessUtils.processSpecFromConfig(config);
        taskManager = launch("taskmanager", TASK_MANAGER_MAIN,
                ProcessMemoryUtils.generateJvmParametersStr(taskManagerSpec),
                TaskExecutorProcessUtils.generateDynamicConfigsStr(taskManagerSpec));
    }

    private Process launch(String name, String mainClass, String memoryFlags, String dynamicConfig) throws IOException {
        List<String> command = javaCommand(words(memoryFlags), logs.resolve(name + ".log"));
        command.add(mainClass);
        command.addAll(List.of("--configDir", conf.toString()));
        command.addAll(words(dynamicConfig));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".out").toFile());
        environment(builder);
        Process process = builder.start();
        processes.add(process);
        return process;
    }

    /** {@code java MEMORY JAVA_OPTS -Dlog.file=LOG log4j-config -cp lib/*}, without the main class. */
    private List<String> javaCommand(List<String> memoryFlags, Path logFile) {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(memoryFlags);
        command.addAll(words(JAVA_OPTS));
        command.add("-Dlog.file=" + logFile);
        command.add("-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
        command.add("-classpath");
        command.add(lib + "/*");
        return command;
    }

    /** What bin/config.sh exports to every Flink process it starts. */
    private void environment(ProcessBuilder builder) {
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        builder.environment().put("FLINK_LIB_DIR", lib.toString());
        builder.environment().put("FLINK_PLUGINS_DIR", plugins.toString());
    }

    private void awaitSlots(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!isRunning()) {
                throw new IllegalStateException("a cluster process exited during start-up (JobManager "
                        + exitOf(jobManager) + ", TaskManager " + exitOf(taskManager) + ")\n" + diagnostics());
            }
            try {
                JsonNode taskManagers = rest("/taskmanagers").path("taskmanagers");
                if (taskManagers.size() == 1 && taskManagers.get(0).path("slotsNumber").asInt() == SLOTS) {
                    return;
                }
                lastAnswer = taskManagers.toString();
            } catch (IOException notUpYet) {
                lastAnswer = notUpYet.toString();
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("no TaskManager with " + SLOTS + " slots registered within " + timeout
                + "; GET /taskmanagers: " + lastAnswer + "\n" + diagnostics());
    }

    /** Clients first, then the TaskManager, then the JobManager: the reverse of their start. */
    private void killAll() {
        List<Process> newestFirst = new ArrayList<>(processes);
        Collections.reverse(newestFirst);
        newestFirst.forEach(StandaloneCluster::stop);
        processes.clear();
    }

    /** SIGTERM lets Flink run its shutdown hooks; whatever is still alive after that is killed. */
    private static void stop(Process process) {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException stillRunning) {
                handle.destroyForcibly();
                handle.onExit().join();
            } catch (InterruptedException e) {
                handle.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String exitOf(Process process) {
        return process.isAlive() ? "running" : "exited with " + process.exitValue();
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

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }
}
