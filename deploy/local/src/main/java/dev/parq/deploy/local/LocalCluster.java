package dev.parq.deploy.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

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
 *
 * <p>This class is the cluster's life cycle; the parts are in classes of their own: the directory
 * ({@link ClusterDir}), the configuration written into it ({@link ClusterConfig}), what a later
 * command starts processes from ({@link ClusterSpec}), the launch of the JVMs ({@link
 * ProcessLauncher}) and their end ({@link ProcessStopper}), the ZooKeeper server ({@link
 * ZooKeeperServer}), whether the processes are up ({@link ClusterHealth}) and Flink's client
 * ({@link FlinkClient}).
 */
public final class LocalCluster {

    /** What writes the warm-up job's input, in parq-job.jar (JDK classes only). */
    private static final String WARM_UP_SAMPLE = "dev.parq.job.cluster.WarmUpSample";

    /**
     * Where a cluster's processes come from and what they are told; {@code zooKeeperLib}, the jars
     * of a ZooKeeper server, is null for a cluster without high availability, {@code application}
     * null for a session cluster, and {@code jar} null for a cluster with Flink's jars alone.
     */
    public record Settings(Path lib, Path configTemplate, Path dir, int taskManagers, int slots,
            Map<String, String> overrides, Duration timeout, Path zooKeeperLib, Application application, Path jar,
            boolean classArchives, int warmUpMegabytes) {

        /**
         * A session cluster without high availability, whose processes start from class-data
         * archives unless {@code PARQ_NO_CDS} is set.
         */
        public Settings(Path lib, Path configTemplate, Path dir, int taskManagers, int slots,
                Map<String, String> overrides, Duration timeout) {
            this(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, null, null, null,
                    ClassArchive.enabledByEnvironment(), 0);
        }

        /** With ZooKeeper high availability, from the ZooKeeper server's jars in {@code zooKeeperLib}. */
        public Settings withHighAvailability(Path zooKeeperLib) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar, classArchives, warmUpMegabytes);
        }

        /** An application cluster: its JobManager runs {@code application}'s main itself. */
        public Settings withApplication(Application application) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar, classArchives, warmUpMegabytes);
        }

        /**
         * Every process of the cluster has a copy of {@code jar} (parq-job.jar) on its class path after
         * Flink's lib/, taken at start so that a rebuild does not change the classes of a running
         * cluster. With parent-first class loading (flink-conf/cluster/config.yaml) a job's classes
         * then come from it: loaded and compiled once per process instead of once per job.
         */
        public Settings withJar(Path jar) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar, classArchives, warmUpMegabytes);
        }

        /**
         * Whether the JobManagers and TaskManagers record class-data archives of the classes they
         * load when the cluster is stopped after a job, and start from them later (in {@code DIR/cds/}).
         */
        public Settings withClassArchives(boolean classArchives) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar,
                    classArchives, warmUpMegabytes);
        }

        /**
         * With {@link #withJar a jar}, a session cluster's start ends with a warm-up job: {@code flink
         * run} converts this many megabytes of generated NDJSON at the parallelism of all its slots
         * (its input and output are deleted after it), so that the first job of a user does not run
         * Flink's task and network code and parq's parser and writer cold; 0: no warm-up job.
         */
        public Settings withWarmUp(int warmUpMegabytes) {
            return new Settings(lib, configTemplate, dir, taskManagers, slots, overrides, timeout, zooKeeperLib, application, jar,
                    classArchives, warmUpMegabytes);
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

    private final ClusterDir dir;
    private final ClusterSpec spec;
    private final ProcessLauncher launcher;
    private final JobManagerRest rest;
    private final ClusterHealth health;
    private final FlinkClient client;
    private Thread stopOnExit;
    private WarmUp warmUp;

    private LocalCluster(Path dir, ClusterSpec spec) {
        this.dir = new ClusterDir(dir);
        this.spec = spec;
        this.launcher = new ProcessLauncher(this.dir, spec);
        this.rest = new JobManagerRest(this.dir);
        this.health = new ClusterHealth(this.dir, rest, spec.slots(), spec.timeout());
        this.client = new FlinkClient(this.dir, launcher);
    }

    /**
     * Starts a JobManager and {@code settings.taskManagers()} TaskManagers (with high availability,
     * a ZooKeeper server before them) and waits until all of them have registered their slots; otherwise stops what it started and fails with the tail of
     * the logs. Refuses if a cluster of that directory is running; the logs of an earlier one are
     * replaced, so that those left there are this run's.
     */
    public static LocalCluster start(Settings settings) throws IOException, InterruptedException {
        requireBuilt(settings);
        if (Files.isDirectory(settings.dir().resolve("run"))) {
            LocalCluster previous = open(settings.dir());
            List<String> alive = previous.dir.processes().stream()
                    .filter(previous.dir::isAlive)
                    .map(ClusterProcess::name)
                    .toList();
            if (!alive.isEmpty()) {
                throw new IllegalStateException("a cluster of " + settings.dir() + " is running (" + String.join(", ", alive)
                        + "); stop it first");
            }
        }
        LocalCluster cluster = new LocalCluster(settings.dir(), ClusterSpec.of(settings));
        Path jar = cluster.dir.prepare(settings.jar());
        try {
            int restPort = Loopback.freePort();
            int rpcPort = Loopback.freePort();
            ZooKeeperServer zooKeeper = null;
            Map<String, String> highAvailability = Map.of();
            if (cluster.highAvailability()) {
                zooKeeper = new ZooKeeperServer(cluster.dir, settings.zooKeeperLib(), Loopback.freePort());
                zooKeeper.writeConfig();
                highAvailability = zooKeeper.flinkOptions();
            }
            ClusterConfig.write(cluster.dir, settings, restPort, rpcPort, highAvailability);
            cluster.spec.write(cluster.dir.run());
            if (zooKeeper != null) {
                zooKeeper.launch(cluster.launcher, settings.timeout());
            }
            cluster.launcher.launchJobManager(1, restPort, rpcPort);
            for (int number = 1; number <= settings.taskManagers(); number++) {
                cluster.launcher.launchTaskManager(number);
            }
            cluster.health.awaitUp(Set.of());
            if (jar != null && settings.application() == null && settings.warmUpMegabytes() > 0) {
                cluster.warmUp = cluster.runWarmUp(jar, settings.warmUpMegabytes(), settings.taskManagers() * settings.slots());
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.stop();
            throw e;
        }
        return cluster;
    }

    private static void requireBuilt(Settings settings) {
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
    }

    /** The cluster whose files are under {@code dir}, running or not. */
    public static LocalCluster open(Path dir) throws IOException {
        return new LocalCluster(dir, ClusterSpec.read(dir));
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
        return dir.path();
    }

    public Path confDir() {
        return dir.conf();
    }

    /** Whether a ZooKeeper server runs with the cluster and its JobManager can be replaced. */
    public boolean highAvailability() {
        return spec.highAvailability();
    }

    /** The REST port of the newest JobManager that is running. */
    public int restPort() throws IOException {
        return dir.currentJobManager().ports().get("rest");
    }

    /** The pid of the newest JobManager that is running. */
    public long jobManagerPid() throws IOException {
        return dir.currentJobManager().pid();
    }

    /** The name of the newest JobManager that is running ({@code jobmanager}, {@code jobmanager-2}, ...). */
    public String jobManagerName() throws IOException {
        return dir.currentJobManager().name();
    }

    /** The TaskManagers' pids by name ({@code taskmanager-1}, ...), in the order they were started. */
    public Map<String, Long> taskManagerPids() throws IOException {
        Map<String, Long> pids = new LinkedHashMap<>();
        dir.processes().stream()
                .filter(ClusterProcess::isTaskManager)
                .forEach(process -> pids.put(process.name(), process.pid()));
        return pids;
    }

    /** Whether every process recorded is alive (not whether it answers). */
    public boolean isRunning() throws IOException {
        List<ClusterProcess> processes = dir.processes();
        return !processes.isEmpty() && processes.stream().allMatch(dir::isAlive);
    }

    /** The names of the processes on record that are not running. */
    public List<String> notRunning() throws IOException {
        return dir.notRunning();
    }

    /**
     * One line per process; up when every process is alive, ZooKeeper and the JobManagers answer
     * and every TaskManager is registered.
     */
    public Status status() throws IOException, InterruptedException {
        return health.status(Set.of());
    }

    /**
     * Starts one more TaskManager and waits until it has registered its slots; the others may be
     * down (one killed is what a new one replaces).
     */
    public String addTaskManager() throws IOException, InterruptedException {
        ClusterProcess added = launcher.launchTaskManager(dir.nextNumber(ClusterProcess.TASK_MANAGER));
        health.awaitRegistered(added);
        return added.name();
    }

    /** What the warm-up job of the start did; empty if none ran. */
    public Optional<WarmUp> warmUp() {
        return Optional.ofNullable(warmUp);
    }

    /** The warm-up job's input and how long its {@code flink run} took, the client's start included. */
    public record WarmUp(long bytes, Duration took) {
        @Override
        public String toString() {
            return String.format("warm-up: a job converted %.0f MB of generated NDJSON in %.1f s", bytes / 1e6,
                    took.toMillis() / 1000.0);
        }
    }

    /**
     * Converts a generated sample with {@code flink run} at the given parallelism ({@link
     * Settings#withWarmUp}); its input and output go after it, whether it succeeded or not. One that
     * fails fails the start: a cluster that cannot run parq's job is not started.
     */
    private WarmUp runWarmUp(Path jar, int megabytes, int parallelism) throws IOException, InterruptedException {
        Path work = dir.path().resolve("tmp").resolve("warm-up");
        Files.createDirectories(work);
        try {
            Path sample = work.resolve("sample.ndjson");
            long bytes = writeSample(jar, sample, megabytes * 1_000_000L);
            long start = System.nanoTime();
            // A split per slot, so that every TaskManager converts its share.
            long splitBytes = (bytes + parallelism - 1) / parallelism;
            CliResult result = client.run(spec.timeout(), "run", jar.toString(), "convert", sample.toString(),
                    "-o", work.resolve("out").toString(), "--parallelism", Integer.toString(parallelism),
                    "--split-size", splitBytes + "b", "--no-progress");
            if (result.exitCode() != 0) {
                throw new IllegalStateException("the warm-up job failed (flink run exited with " + result.exitCode()
                        + "; cluster start --warm-up 0 starts without it):\n" + result.err() + result.out() + "\n"
                        + dir.diagnostics());
            }
            return new WarmUp(bytes, Duration.ofNanos(System.nanoTime() - start));
        } finally {
            ClusterDir.deleteRecursively(work);
        }
    }

    /** Has the jar's {@value #WARM_UP_SAMPLE} write {@code bytes} of NDJSON to {@code file}. */
    private static long writeSample(Path jar, Path file, long bytes) throws IOException {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Method write = Class.forName(WARM_UP_SAMPLE, true, loader).getMethod("write", Path.class, long.class);
            return (long) write.invoke(null, file, bytes);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("the warm-up's sample could not be written: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(jar + " has no " + WARM_UP_SAMPLE + " to write the warm-up's sample (a jar"
                    + " of another version? cluster start --warm-up 0 starts without it)", e);
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
        List<ClusterProcess> jobManagers = dir.processes().stream().filter(ClusterProcess::isJobManager).toList();
        List<ClusterProcess> alive = jobManagers.stream().filter(dir::isAlive).toList();
        if (!highAvailability() && !alive.isEmpty()) {
            throw new IllegalStateException("the JobManager " + alive.get(0).name()
                    + " is running, and without --ha a cluster has one only");
        }
        int number = dir.nextNumber(ClusterProcess.JOB_MANAGER);
        int restPort;
        int rpcPort;
        if (highAvailability()) {
            restPort = Loopback.freePort();
            rpcPort = Loopback.freePort();
            ClusterConfig.set(dir, "rest.port", Integer.toString(restPort));
        } else {
            ClusterProcess replaced = jobManagers.get(jobManagers.size() - 1);
            restPort = replaced.ports().get("rest");
            rpcPort = replaced.ports().get("rpc");
        }
        for (ClusterProcess dead : jobManagers) {
            if (!alive.contains(dead)) {
                dead.forget(dir.run());
            }
        }
        // The dead JobManagers' records are gone; what else is not running (TaskManagers killed
        // before) stays dead, and the new JobManager is up without it.
        Set<String> deadBefore = new HashSet<>(dir.notRunning());
        ClusterProcess added = launcher.launchJobManager(number, restPort, rpcPort);
        health.awaitUp(deadBefore);
        return added.name();
    }

    /** SIGKILLs the named process, as a crash would end it; its record stays, showing it not running. */
    public void kill(String name) throws IOException {
        ClusterProcess process = dir.processes().stream()
                .filter(candidate -> candidate.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no process " + name + " in " + dir.path()));
        dir.handle(process).ifPresent(ProcessStopper::kill);
    }

    /**
     * SIGTERM to the TaskManagers, then to the JobManagers, so that Flink runs its shutdown hooks,
     * then to ZooKeeper, which the JobManagers need until they are gone; what is still alive after a
     * grace period is killed. Removes the process records. Nothing running is not an error. Before
     * that, if the cluster has finished a job, the processes started without a class-data archive
     * record one ({@link ClassArchive}).
     */
    public void stop() throws IOException {
        if (stopOnExit != null && Thread.currentThread() != stopOnExit) {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
            stopOnExit = null;
        }
        List<ClusterProcess> processes = dir.processes();
        Map<String, ProcessHandle> running = new LinkedHashMap<>();
        processes.forEach(process -> dir.handle(process).ifPresent(handle -> running.put(process.name(), handle)));
        new ClassArchive(dir, spec.classArchives()).record(running, this::finishedAJob);
        ProcessStopper.stopAll(handles(processes.stream().filter(ClusterProcess::isTaskManager).toList()));
        ProcessStopper.stopAll(handles(processes.stream().filter(ClusterProcess::isJobManager).toList()));
        ProcessStopper.stopAll(handles(processes.stream().filter(ClusterProcess::isZooKeeper).toList()));
        for (ClusterProcess process : processes) {
            process.forget(dir.run());
        }
    }

    /** Whether a JobManager that runs lists a finished job; no if none answers. */
    private boolean finishedAJob() {
        try {
            return dir.processes().stream().anyMatch(dir::isAlive)
                    && rest.get("/jobs/overview").path("jobs").findValuesAsText("state").contains("FINISHED");
        } catch (IOException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private List<ProcessHandle> handles(List<ClusterProcess> processes) {
        return processes.stream()
                .map(dir::handle)
                .flatMap(Optional::stream)
                .toList();
    }

    /**
     * GET on the REST API of the newest JobManager that is running, as JSON. (With high availability
     * any JobManager's REST API answers for the leader, which it finds through ZooKeeper.)
     */
    public JsonNode rest(String path) throws IOException, InterruptedException {
        return rest.get(path);
    }

    /**
     * Runs {@code flink ARGS} through Flink's CLI main class in its own JVM, as {@code bin/flink}
     * does, with this cluster's configuration directory, and waits for it. The client's own log goes
     * to {@code log/client-N.log}.
     */
    public CliResult flink(Duration limit, String... args) throws IOException, InterruptedException {
        return client.run(limit, args);
    }

    /** The last lines of every log of the cluster and its clients, for failure messages. */
    public String diagnostics() {
        return dir.diagnostics();
    }
}
