package dev.parq.deploy.local;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A Flink standalone session cluster of real processes on one machine: one JobManager JVM and
 * TaskManager JVMs, started the way flink-dist's {@code bin/} scripts start them (same main classes,
 * memory flags computed by Flink's own process-memory utilities, a configuration directory, log
 * files), and Flink's command line client run as a process of its own. Everything listens on
 * 127.0.0.1 only.
 *
 * <p>All of it lives under one directory: {@code conf/} (the configuration template plus this
 * run's addresses and ports), {@code log/}, {@code tmp/} and {@code run/}, where each process has a
 * record of its pid and ports. The processes do not belong to the JVM that started them: they run
 * on after it exits, and {@link #open} finds them again from another process.
 *
 * <p>With high availability a ZooKeeper server runs too, and every Flink process finds the leading
 * JobManager through it: a JobManager that dies can be replaced ({@link #addJobManager}) by one on
 * other ports, which takes over the running jobs from their job graphs and latest checkpoints in
 * {@code ha/} and ZooKeeper, and the TaskManagers register with it.
 */
public final class LocalCluster {

    /**
     * Where a cluster's processes come from and what they are told; {@code zooKeeperLib}, the jars
     * of a ZooKeeper server, is null for a cluster without high availability, {@code application}
     * null for a session cluster, and {@code jar} null for a cluster with Flink's jars alone.
     */
    public record Settings(Path lib, Path configTemplate, Path dir, int taskManagers, int slots,
            Map<String, String> overrides, Duration timeout, Path zooKeeperLib, Application application, Path jar) {

        /** A session cluster without high availability. */
        public Settings(Path lib, Path configTemplate, Path dir, int taskManagers, int slots,
                Map<String, String> overrides, Duration timeout) {
            this(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, null, null, null);
        }

        /** With ZooKeeper high availability, from the ZooKeeper server's jars in {@code zooKeeperLib}. */
        public Settings withHighAvailability(Path zooKeeperLib) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar);
        }

        /** An application cluster: its JobManager runs {@code application}'s main itself. */
        public Settings withApplication(Application application) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar);
        }

        /**
         * Every process of the cluster has a copy of {@code jar} (parq-job.jar) on its class path after
         * Flink's lib/, taken at start so that a rebuild does not change the classes of a running
         * cluster. With parent-first class loading (flink-conf/cluster/config.yaml) a job's classes
         * then come from it: loaded and compiled once per process instead of once per job.
         */
        public Settings withJar(Path jar) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar);
        }

        public Settings {
            if (taskManagers < 1 || slots < 1) {
                throw new IllegalArgumentException("a cluster needs at least one TaskManager and one slot");
            }
            lib = lib.toAbsolutePath();
            zooKeeperLib = zooKeeperLib == null ? null : zooKeeperLib.toAbsolutePath();
            jar = jar == null ? null : jar.toAbsolutePath();
            configTemplate = configTemplate.toAbsolutePath();
            dir = dir.toAbsolutePath();
            overrides = Map.copyOf(overrides);
        }
    }

    /**
     * A program for Flink's application mode: the JobManager
     * ({@code StandaloneApplicationClusterEntryPoint}) runs {@code mainClass} from {@code jar} with
     * {@code args}, as the Flink Kubernetes Operator's JobManager runs a FlinkDeployment's job, and
     * again when a JobManager takes over after a failover.
     */
    public record Application(Path jar, String mainClass, List<String> args) {

        public Application {
            jar = jar.toAbsolutePath();
            args = List.copyOf(args);
        }
    }

    /** What a {@code flink} command printed and how it exited. */
    public record CliResult(int exitCode, String out, String err) {}

    /** What {@code status} saw: one line per process, and whether the cluster is up. */
    public record Status(List<String> lines, boolean up) {}

    static final String LOOPBACK = "127.0.0.1";
    private static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String APPLICATION_JOB_MANAGER_MAIN =
            "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";
    private static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String CLI_MAIN = "org.apache.flink.client.cli.CliFrontend";
    private static final String ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String ZOOKEEPER_CONFIG = "zoo.cfg";
    private static final String SETTINGS_FILE = "cluster.settings";
    private static final int LOG_TAIL_LINES = 40;
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path lib;
    private final Path zooKeeperLib;
    private final Application application;
    private final int slots;
    private final Duration timeout;
    private final Path conf;
    private final Path logs;
    private final Path run;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Thread stopOnExit;
    private int cliRuns;

    private LocalCluster(Path dir, Path lib, Path zooKeeperLib, Application application, int slots, Duration timeout) {
        this.dir = dir.toAbsolutePath();
        this.lib = lib.toAbsolutePath();
        this.zooKeeperLib = zooKeeperLib == null ? null : zooKeeperLib.toAbsolutePath();
        this.application = application;
        this.slots = slots;
        this.timeout = timeout;
        this.conf = this.dir.resolve("conf");
        this.logs = this.dir.resolve("log");
        this.run = this.dir.resolve("run");
    }

    /**
     * Starts a JobManager and {@code settings.taskManagers()} TaskManagers (with high availability,
     * a ZooKeeper server before them) and waits until all of them have registered their slots; otherwise stops what it started and fails with the tail of
     * the logs. Refuses if a cluster of that directory is running; the logs of an earlier one are
     * replaced, so that those left there are this run's.
     */
    public static LocalCluster start(Settings settings) throws IOException, InterruptedException {
        if (!Files.isDirectory(settings.lib())) {
            throw new IllegalStateException("no Flink lib directory at " + settings.lib()
                    + "; mvn -pl deploy/local -am package assembles it");
        }
        if (settings.zooKeeperLib() != null && !Files.isDirectory(settings.zooKeeperLib())) {
            throw new IllegalStateException("no ZooKeeper lib directory at " + settings.zooKeeperLib()
                    + "; mvn -pl deploy/local -am package assembles it");
        }
        if (settings.jar() != null && !Files.isRegularFile(settings.jar())) {
            throw new IllegalStateException("no jar at " + settings.jar() + "; mvn -pl job -am package -DskipTests builds it");
        }
        if (Files.isDirectory(settings.dir().resolve("run"))) {
            LocalCluster previous = open(settings.dir());
            List<String> alive = previous.processes().stream()
                    .filter(process -> process.handle(previous.conf).isPresent())
                    .map(ClusterProcess::name)
                    .toList();
            if (!alive.isEmpty()) {
                throw new IllegalStateException("a cluster of " + settings.dir() + " is running (" + String.join(", ", alive)
                        + "); stop it first");
            }
        }
        LocalCluster cluster = new LocalCluster(settings.dir(), settings.lib(), settings.zooKeeperLib(),
                settings.application(), settings.slots(), settings.timeout());
        // ha/, zookeeper/ and artifacts/ too: a new cluster must not take over the jobs or jars of an old one
        for (String owned : List.of("conf", "log", "tmp", "run", "ha", "zookeeper", "artifacts", "lib")) {
            deleteRecursively(settings.dir().resolve(owned));
        }
        for (String owned : List.of("conf", "log", "tmp", "run", "plugins", "lib")) {
            Files.createDirectories(settings.dir().resolve(owned));
        }
        if (settings.jar() != null) {
            Files.copy(settings.jar(), settings.dir().resolve("lib").resolve(settings.jar().getFileName()));
        }
        try {
            int restPort = freePort();
            int rpcPort = freePort();
            Integer zooKeeperPort = null;
            if (cluster.highAvailability()) {
                zooKeeperPort = freePort();
                cluster.writeZooKeeperConfig(zooKeeperPort);
            }
            cluster.writeConfig(settings, restPort, rpcPort, zooKeeperPort);
            cluster.writeSettings();
            if (zooKeeperPort != null) {
                cluster.launchZooKeeper(zooKeeperPort);
            }
            cluster.launchJobManager(1, restPort, rpcPort);
            for (int number = 1; number <= settings.taskManagers(); number++) {
                cluster.launchTaskManager(number);
            }
            cluster.awaitUp();
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.stop();
            throw e;
        }
        return cluster;
    }

    /** The cluster whose files are under {@code dir}, running or not. */
    public static LocalCluster open(Path dir) throws IOException {
        Path settingsFile = dir.resolve("run").resolve(SETTINGS_FILE);
        if (!Files.isRegularFile(settingsFile)) {
            throw new IllegalStateException("no cluster was started in " + dir.toAbsolutePath());
        }
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(settingsFile, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        String zooKeeperLib = settings.getProperty("zookeeper.lib");
        Application application = null;
        if (settings.getProperty("application.jar") != null) {
            List<String> args = new ArrayList<>();
            for (int i = 0; settings.getProperty("application.arg." + i) != null; i++) {
                args.add(settings.getProperty("application.arg." + i));
            }
            application = new Application(Path.of(settings.getProperty("application.jar")),
                    settings.getProperty("application.main"), args);
        }
        return new LocalCluster(dir, Path.of(settings.getProperty("lib")),
                zooKeeperLib == null ? null : Path.of(zooKeeperLib), application,
                Integer.parseInt(settings.getProperty("slots")),
                Duration.parse(settings.getProperty("timeout")));
    }

    /** Stops the cluster when this JVM exits, should a test end without {@link #stop}. */
    public LocalCluster stopOnExit() {
        stopOnExit = new Thread(() -> {
            try {
                stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "stop-local-flink-cluster");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        return this;
    }

    public Path dir() {
        return dir;
    }

    public Path confDir() {
        return conf;
    }

    /** Whether a ZooKeeper server runs with the cluster and its JobManager can be replaced. */
    public boolean highAvailability() {
        return zooKeeperLib != null;
    }

    /** The REST port of the newest JobManager that is running. */
    public int restPort() throws IOException {
        return currentJobManager().ports().get("rest");
    }

    /** The pid of the newest JobManager that is running. */
    public long jobManagerPid() throws IOException {
        return currentJobManager().pid();
    }

    /** The name of the newest JobManager that is running ({@code jobmanager}, {@code jobmanager-2}, ...). */
    public String jobManagerName() throws IOException {
        return currentJobManager().name();
    }

    /** The TaskManagers' pids by name ({@code taskmanager-1}, ...), in the order they were started. */
    public Map<String, Long> taskManagerPids() throws IOException {
        Map<String, Long> pids = new LinkedHashMap<>();
        taskManagers().forEach(process -> pids.put(process.name(), process.pid()));
        return pids;
    }

    /** Whether every process recorded is alive (not whether it answers). */
    public boolean isRunning() throws IOException {
        List<ClusterProcess> processes = processes();
        return !processes.isEmpty() && processes.stream().allMatch(process -> process.handle(conf).isPresent());
    }

    /**
     * One line per process; up when every process is alive, ZooKeeper and the JobManagers answer
     * and every TaskManager is registered.
     */
    public Status status() throws IOException, InterruptedException {
        return status(Set.of());
    }

    /** As {@link #status()}, with the processes named in {@code dead} listed but not counted against being up. */
    private Status status(Set<String> dead) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        boolean up = true;
        Set<String> registered = registeredTaskManagers();
        for (ClusterProcess process : processes()) {
            String line = process.statusLine(LOOPBACK);
            if (process.handle(conf).isEmpty()) {
                line += " (not running)";
                up &= dead.contains(process.name());
            } else if (process.isZooKeeper() && !zooKeeperAnswers(process.ports().get("client"))) {
                line += " (not answering)";
                up = false;
            } else if (process.isJobManager() && !answers(process)) {
                line += " (not answering)";
                up = false;
            } else if (process.isTaskManager() && (registered == null || !registered.contains(process.name()))) {
                line += " (not registered)";
                up = false;
            }
            lines.add(line);
        }
        return new Status(List.copyOf(lines), up && !lines.isEmpty());
    }

    /**
     * Starts one more TaskManager and waits until it has registered its slots; the others may be
     * down (one killed is what a new one replaces).
     */
    public String addTaskManager() throws IOException, InterruptedException {
        ClusterProcess added = launchTaskManager(nextNumber(ClusterProcess.TASK_MANAGER));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Set<String> registered = registeredTaskManagers();
            if (registered != null && registered.contains(added.name())) {
                return added.name();
            }
            if (added.handle(conf).isEmpty()) {
                throw new IllegalStateException(added.name() + " exited during start-up\n" + diagnostics());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(added.name() + " did not register within " + timeout + "\n"
                        + diagnostics());
            }
            Thread.sleep(250);
        }
    }

    /**
     * Starts a JobManager in place of those that are no longer running (their records go), and
     * waits until a JobManager leads and every TaskManager has registered with it. With high
     * availability it gets ports of its own and may join a running one as its standby; the
     * configuration's {@code rest.port} becomes its own, for clients that do not ask ZooKeeper.
     * Without, it takes the ports of the JobManager it replaces (the TaskManagers know only those)
     * and starts with no jobs: those of the one that died are gone.
     */
    public String addJobManager() throws IOException, InterruptedException {
        List<ClusterProcess> jobManagers = processes().stream().filter(ClusterProcess::isJobManager).toList();
        List<ClusterProcess> alive = jobManagers.stream().filter(process -> process.handle(conf).isPresent()).toList();
        if (!highAvailability() && !alive.isEmpty()) {
            throw new IllegalStateException("the JobManager " + alive.get(0).name()
                    + " is running, and without --ha a cluster has one only");
        }
        int number = nextNumber(ClusterProcess.JOB_MANAGER);
        int restPort;
        int rpcPort;
        if (highAvailability()) {
            restPort = freePort();
            rpcPort = freePort();
            setConfigKey("rest.port", Integer.toString(restPort));
        } else {
            ClusterProcess replaced = jobManagers.get(jobManagers.size() - 1);
            restPort = replaced.ports().get("rest");
            rpcPort = replaced.ports().get("rpc");
        }
        for (ClusterProcess dead : jobManagers) {
            if (!alive.contains(dead)) {
                dead.forget(run);
            }
        }
        // TaskManagers that died before stay dead: the new JobManager is up without them.
        Set<String> deadTaskManagers = new HashSet<>(notRunning());
        ClusterProcess added = launchJobManager(number, restPort, rpcPort);
        awaitUp(deadTaskManagers);
        return added.name();
    }

    /** SIGKILLs the named process, as a crash would end it; its record stays, showing it not running. */
    public void kill(String name) throws IOException {
        ClusterProcess process = processes().stream()
                .filter(candidate -> candidate.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no process " + name + " in " + dir));
        process.handle(conf).ifPresent(handle -> {
            handle.destroyForcibly();
            handle.onExit().join();
        });
    }

    /**
     * SIGTERM to the TaskManagers, then to the JobManagers, so that Flink runs its shutdown hooks,
     * then to ZooKeeper, which the JobManagers need until they are gone; what is still alive after a
     * grace period is killed. Removes the process records. Nothing running is not an error.
     */
    public void stop() throws IOException {
        if (stopOnExit != null && Thread.currentThread() != stopOnExit) {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
            stopOnExit = null;
        }
        List<ClusterProcess> processes = processes();
        terminate(processes.stream().filter(ClusterProcess::isTaskManager).toList());
        terminate(processes.stream().filter(ClusterProcess::isJobManager).toList());
        terminate(processes.stream().filter(ClusterProcess::isZooKeeper).toList());
        for (ClusterProcess process : processes) {
            process.forget(run);
        }
    }

    /**
     * GET on the REST API of the newest JobManager that is running, as JSON. (With high availability
     * any JobManager's REST API answers for the leader, which it finds through ZooKeeper.)
     */
    public JsonNode rest(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(currentJobManager(), path);
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /**
     * Runs {@code flink ARGS} through Flink's CLI main class in its own JVM, as {@code bin/flink}
     * does, with this cluster's configuration directory, and waits for it. The client's own log goes
     * to {@code log/client-N.log}.
     */
    public CliResult flink(Duration limit, String... args) throws IOException, InterruptedException {
        int number = ++cliRuns;
        Path out = logs.resolve("client-" + number + ".out");
        Path err = logs.resolve("client-" + number + ".err");
        List<String> command = javaCommand(List.of("-Xmx512m"), CoreOptions.FLINK_CLI_JVM_OPTIONS,
                logs.resolve("client-" + number + ".log"));
        command.add(CLI_MAIN);
        command.addAll(Arrays.asList(args));
        Process client = processBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!client.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("flink " + String.join(" ", args) + " did not finish within "
                        + limit + "\n" + diagnostics());
            }
        } finally {
            if (client.isAlive()) {
                terminate(client.toHandle());
            }
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
            text.append("\n--- ").append(logs).append(": unreadable: ").append(e).append('\n');
        }
        return text.toString();
    }

    private void writeConfig(Settings settings, int restPort, int rpcPort, Integer zooKeeperPort) throws IOException {
        Map<String, String> ours = new LinkedHashMap<>(Map.ofEntries(
                Map.entry("jobmanager.rpc.address", LOOPBACK),
                Map.entry("jobmanager.rpc.port", Integer.toString(rpcPort)),
                Map.entry("jobmanager.bind-host", LOOPBACK),
                Map.entry("taskmanager.host", LOOPBACK),
                Map.entry("taskmanager.bind-host", LOOPBACK),
                Map.entry("taskmanager.numberOfTaskSlots", Integer.toString(settings.slots())),
                Map.entry("parallelism.default", Integer.toString(settings.slots())),
                Map.entry("rest.address", LOOPBACK),
                Map.entry("rest.bind-address", LOOPBACK),
                Map.entry("rest.port", Integer.toString(restPort)),
                Map.entry("io.tmp.dirs", dir.resolve("tmp").toString()),
                // an application's jar is copied there, and a copy already there is taken as it is
                // (by default /opt/flink/artifacts, shared by every cluster and run)
                Map.entry("user.artifacts.base-dir", dir.resolve("artifacts").toString())));
        if (zooKeeperPort != null) {
            ours.putAll(Map.of(
                    "high-availability.type", "zookeeper",
                    "high-availability.zookeeper.quorum", LOOPBACK + ":" + zooKeeperPort,
                    "high-availability.storageDir", dir.resolve("ha").toUri().toString(),
                    "high-availability.cluster-id", "/parq-local",
                    "high-availability.zookeeper.path.root", "/flink"));
        }
        if (settings.jar() != null) {
            // Every process has parq on its class path: flink run need not send it with each job.
            ours.put("parq.cluster.ship-jar", "false");
        }
        ours.putAll(settings.overrides());
        StringBuilder yaml = new StringBuilder("# Written by deploy/local's LocalCluster from "
                + settings.configTemplate() + ", then this run's own keys at the end.\n");
        for (String line : Files.readAllLines(settings.configTemplate(), StandardCharsets.UTF_8)) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.startsWith("#") || !ours.containsKey(line.substring(0, colon).trim())) {
                yaml.append(line).append('\n');
            }
        }
        yaml.append("\n# --- this run\n");
        ours.entrySet().stream().sorted(Map.Entry.comparingByKey())
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

    /** Replaces the line of {@code key} that {@link #writeConfig} wrote for this run. */
    private void setConfigKey(String key, String value) throws IOException {
        Path file = conf.resolve(GlobalConfiguration.FLINK_CONF_FILENAME);
        String prefix = key + ": ";
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .map(line -> line.startsWith(prefix) ? prefix + "\"" + value + "\"" : line)
                .toList();
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** A standalone server on loopback, its data under {@code zookeeper/}. */
    private void writeZooKeeperConfig(int port) throws IOException {
        Files.writeString(conf.resolve(ZOOKEEPER_CONFIG), String.join("\n",
                "# Written by deploy/local's LocalCluster: the ZooKeeper server of this cluster's high availability.",
                "tickTime=1000",
                "dataDir=" + dir.resolve("zookeeper"),
                "clientPort=" + port,
                "clientPortAddress=" + LOOPBACK,
                // srvr is how status asks whether it serves; no admin server on port 8080 of all interfaces
                "4lw.commands.whitelist=srvr",
                "admin.enableServer=false",
                ""));
    }

    /** What {@link #open} needs to start more processes from another JVM. */
    private void writeSettings() throws IOException {
        Properties settings = new Properties();
        settings.setProperty("lib", lib.toString());
        if (zooKeeperLib != null) {
            settings.setProperty("zookeeper.lib", zooKeeperLib.toString());
        }
        if (application != null) {
            settings.setProperty("application.jar", application.jar().toString());
            settings.setProperty("application.main", application.mainClass());
            for (int i = 0; i < application.args().size(); i++) {
                settings.setProperty("application.arg." + i, application.args().get(i));
            }
        }
        settings.setProperty("slots", Integer.toString(slots));
        settings.setProperty("timeout", timeout.toString());
        try (Writer out = Files.newBufferedWriter(run.resolve(SETTINGS_FILE), StandardCharsets.UTF_8)) {
            settings.store(out, "how this cluster was started");
        }
    }

    private void launchZooKeeper(int port) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaExecutable(), "-Xmx128m"));
        command.addAll(logOptions(logs.resolve(ClusterProcess.ZOOKEEPER + ".log")));
        command.addAll(List.of("-classpath", zooKeeperLib + "/*", ZOOKEEPER_MAIN, conf.resolve(ZOOKEEPER_CONFIG).toString()));
        ClusterProcess zooKeeper = start(ClusterProcess.ZOOKEEPER, processBuilder(command), Map.of("client", port));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!zooKeeperAnswers(port)) {
            if (zooKeeper.handle(conf).isEmpty() || System.nanoTime() > deadline) {
                throw new IllegalStateException("ZooKeeper did not serve on " + LOOPBACK + ":" + port + "\n" + diagnostics());
            }
            Thread.sleep(100);
        }
    }

    /**
     * With high availability the JobManager's RPC port is {@code high-availability.jobmanager.port}
     * (the TaskManagers learn it from ZooKeeper), and each JobManager has its own REST port.
     */
    private ClusterProcess launchJobManager(int number, int restPort, int rpcPort) throws IOException {
        Configuration config = config();
        // bin/jobmanager.sh: JVM memory flags and the derived memory settings from BashJavaUtils.
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(config);
        String own = highAvailability()
                ? " -D rest.port=" + restPort + " -D high-availability.jobmanager.port=" + rpcPort
                : "";
        List<String> program = List.of();
        if (application != null) {
            // --jars takes every word up to the next option, so it goes before --job-classname
            program = new ArrayList<>(List.of("--jars", application.jar().toUri().toString(),
                    "--job-classname", application.mainClass()));
            program.addAll(application.args());
        }
        return launch(ClusterProcess.name(ClusterProcess.JOB_MANAGER, number),
                application == null ? JOB_MANAGER_MAIN : APPLICATION_JOB_MANAGER_MAIN,
                JobManagerProcessUtils.generateJvmParametersStr(spec, config),
                JobManagerProcessUtils.generateDynamicConfigsStr(spec) + own,
                orderedPorts("rest", restPort, "rpc", rpcPort), program);
    }

    private ClusterProcess launchTaskManager(int number) throws IOException {
        Configuration config = config();
        // bin/taskmanager.sh: the TaskManager refuses to start without its memory components set.
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(config);
        String name = ClusterProcess.name(ClusterProcess.TASK_MANAGER, number);
        int rpcPort = freePort();
        int dataPort = freePort();
        // Its own ports, recorded for status, and its name as the id the JobManager lists it under.
        String own = " -D taskmanager.rpc.port=" + rpcPort + " -D taskmanager.data.port=" + dataPort
                + " -D taskmanager.resource-id=" + name;
        return launch(name, TASK_MANAGER_MAIN, ProcessMemoryUtils.generateJvmParametersStr(spec),
                TaskExecutorProcessUtils.generateDynamicConfigsStr(spec) + own,
                orderedPorts("rpc", rpcPort, "data", dataPort), List.of());
    }

    /** {@code program}: the options and arguments of an application's main, after Flink's own. */
    private ClusterProcess launch(String name, String mainClass, String memoryFlags, String dynamicConfig,
            Map<String, Integer> ports, List<String> program) throws IOException {
        List<String> command = javaCommand(words(memoryFlags), name.startsWith(ClusterProcess.JOB_MANAGER)
                ? CoreOptions.FLINK_JM_JVM_OPTIONS : CoreOptions.FLINK_TM_JVM_OPTIONS, logs.resolve(name + ".log"));
        command.add(mainClass);
        command.addAll(List.of("--configDir", conf.toString()));
        command.addAll(words(dynamicConfig));
        command.addAll(program);
        return start(name, processBuilder(command), ports);
    }

    /** Output to a file and no input: nothing ties the process to the JVM that starts it. */
    private ClusterProcess start(String name, ProcessBuilder builder, Map<String, Integer> ports) throws IOException {
        Process process = builder
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".out").toFile())
                .start();
        ClusterProcess record = new ClusterProcess(name, process.pid(), ports);
        record.write(run);
        return record;
    }

    /**
     * {@code java MEMORY JAVA_OPTS ROLE_OPTS -Dlog.file=LOG log4j-config -cp lib/*:DIR/lib/*}, without the main
     * class: the options for every process ({@code env.java.opts.all}), then those of its role, as
     * Flink's own scripts put them, variables expanded as they do.
     */
    private List<String> javaCommand(List<String> memoryFlags, ConfigOption<String> roleOptions, Path logFile) {
        List<String> command = new ArrayList<>(List.of(javaExecutable()));
        command.addAll(memoryFlags);
        Configuration config = config();
        // lib/ is that of the assembled distribution, so its parent is FLINK_HOME, as for bin/.
        Map<String, String> variables = Map.of("FLINK_HOME", lib.getParent().toString(), "FLINK_CONF_DIR", conf.toString());
        command.addAll(JvmOptions.words(config.get(CoreOptions.FLINK_JVM_OPTIONS), variables));
        command.addAll(JvmOptions.words(config.get(roleOptions), variables));
        command.addAll(logOptions(logFile));
        command.add("-classpath");
        command.add(lib + "/*" + File.pathSeparator + dir.resolve("lib") + "/*");
        return command;
    }

    private List<String> logOptions(Path logFile) {
        return List.of("-Dlog.file=" + logFile, "-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** With what bin/config.sh exports to every Flink process it starts. */
    private ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        builder.environment().put("FLINK_LIB_DIR", lib.toString());
        builder.environment().put("FLINK_PLUGINS_DIR", dir.resolve("plugins").toString());
        return builder;
    }

    private Configuration config() {
        return GlobalConfiguration.loadConfiguration(conf.toString());
    }

    private void awaitUp() throws IOException, InterruptedException {
        awaitUp(Set.of());
    }

    /** Waits until every process but those named in {@code dead} runs, answers and has registered. */
    private void awaitUp(Set<String> dead) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Status status = status(dead);
        while (!status.up()) {
            List<String> exited = notRunning().stream().filter(name -> !dead.contains(name)).toList();
            if (!exited.isEmpty()) {
                throw new IllegalStateException("exited during start-up: " + String.join(", ", exited) + "\n" + diagnostics());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster was not up within " + timeout + ":\n"
                        + String.join("\n", status.lines()) + "\n" + diagnostics());
            }
            Thread.sleep(250);
            status = status(dead);
        }
    }

    /** The names of the processes on record that are not running. */
    public List<String> notRunning() throws IOException {
        return processes().stream()
                .filter(process -> process.handle(conf).isEmpty())
                .map(ClusterProcess::name)
                .toList();
    }

    /** The names of the TaskManagers registered with all their slots, or null if the JobManager does not answer. */
    private Set<String> registeredTaskManagers() throws InterruptedException {
        JsonNode answer;
        try {
            answer = rest("/taskmanagers").path("taskmanagers");
        } catch (IOException | IllegalStateException notUp) {
            return null;
        }
        Set<String> names = new HashSet<>();
        answer.forEach(taskManager -> {
            if (taskManager.path("slotsNumber").asInt() == slots) {
                names.add(taskManager.path("id").asText());
            }
        });
        return names;
    }

    /** Whether the JobManager's REST API answers (a standby's does too, for the leader). */
    private boolean answers(ClusterProcess jobManager) throws InterruptedException {
        try {
            return get(jobManager, "/overview").statusCode() == 200;
        } catch (IOException notAnswering) {
            return false;
        }
    }

    /** The newest JobManager that is running, else the newest recorded. */
    private ClusterProcess currentJobManager() throws IOException {
        List<ClusterProcess> jobManagers = processes().stream().filter(ClusterProcess::isJobManager).toList();
        if (jobManagers.isEmpty()) {
            throw new IllegalStateException("no JobManager recorded in " + run);
        }
        return jobManagers.stream()
                .filter(process -> process.handle(conf).isPresent())
                .reduce((older, newer) -> newer)
                .orElse(jobManagers.get(jobManagers.size() - 1));
    }

    private HttpResponse<String> get(ClusterProcess jobManager, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + LOOPBACK + ":" + jobManager.ports().get("rest") + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private List<ClusterProcess> taskManagers() throws IOException {
        return processes().stream().filter(ClusterProcess::isTaskManager).toList();
    }

    private int nextNumber(String role) throws IOException {
        return processes().stream()
                .filter(process -> process.role().equals(role))
                .mapToInt(ClusterProcess::number)
                .max().orElse(0) + 1;
    }

    /** ZooKeeper first, then the JobManagers, then the TaskManagers, each by number. */
    private List<ClusterProcess> processes() throws IOException {
        if (!Files.isDirectory(run)) {
            return List.of();
        }
        List<ClusterProcess> processes = new ArrayList<>();
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(ClusterProcess::isRecord).toList()) {
                processes.add(ClusterProcess.read(file));
            }
        }
        processes.sort(Comparator.comparingInt(ClusterProcess::startOrder).thenComparingInt(ClusterProcess::number));
        return processes;
    }

    private void terminate(List<ClusterProcess> processes) {
        List<ProcessHandle> handles = processes.stream()
                .map(process -> process.handle(conf))
                .flatMap(Optional::stream)
                .toList();
        handles.forEach(ProcessHandle::destroy);
        handles.forEach(LocalCluster::awaitOrKill);
    }

    private static void terminate(ProcessHandle process) {
        process.destroy();
        awaitOrKill(process);
    }

    /** SIGTERM lets Flink run its shutdown hooks; whatever is still alive after that is killed. */
    private static void awaitOrKill(ProcessHandle process) {
        try {
            process.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException stillRunning) {
            process.destroyForcibly();
            process.onExit().join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, Integer> orderedPorts(String first, int firstPort, String second, int secondPort) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put(first, firstPort);
        ports.put(second, secondPort);
        return ports;
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

    /** Whether a ZooKeeper server serves on {@code port}: its {@code srvr} command answers with its mode. */
    private static boolean zooKeeperAnswers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 1000);
            socket.setSoTimeout(2000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).contains("Mode: ");
        } catch (IOException notServing) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }
}
