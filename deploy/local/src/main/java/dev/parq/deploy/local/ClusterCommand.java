package dev.parq.deploy.local;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code deploy/local/cluster start|status|add-taskmanager|add-jobmanager|stop}: a {@link LocalCluster}
 * driven from the shell. The processes it starts outlive it; each later command finds them through
 * the cluster's directory. The wrapper script says where Flink's lib/, ZooKeeper's and the
 * configuration template are (PARQ_FLINK_LIB, PARQ_ZOOKEEPER_LIB, PARQ_CLUSTER_CONFIG) and which
 * directory is the default (PARQ_CLUSTER_DIR).
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "A Flink standalone cluster of separate JobManager and TaskManager JVMs on this machine, on 127.0.0.1 only;"
                + " with --ha, a ZooKeeper server too and JobManager high availability.")
public final class ClusterCommand {

    @Option(names = "--dir", scope = CommandLine.ScopeType.INHERIT, paramLabel = "DIR",
            defaultValue = "${env:PARQ_CLUSTER_DIR:-deploy/local/work}",
            description = "The cluster's conf/, log/, tmp/, run/ (pids and ports), artifacts/ and, with --ha, ha/ and zookeeper/"
                    + " (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The command's exit code, without exiting. */
    static int run(String... args) {
        return new CommandLine(new ClusterCommand())
                // A cluster that did not start or is not there: its message (and log tails), no stack trace.
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    if (!(e instanceof IllegalStateException)) {
                        throw e;
                    }
                    commandLine.getErr().println("cluster: " + e.getMessage());
                    return 1;
                })
                .execute(args);
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Starts a JobManager and TaskManagers (with --ha, a ZooKeeper server first), detached, and waits until"
                    + " every TaskManager has registered its slots, then runs a warm-up job (--warm-up). They start from the"
                    + " class-data archives in DIR/cds/ when an"
                    + " earlier cluster of DIR recorded them for this JDK and build (PARQ_NO_CDS=1: without).")
    int start(
            @Option(names = "--taskmanagers", paramLabel = "N", defaultValue = "2",
                    description = "TaskManager JVMs (default: ${DEFAULT-VALUE}).") int taskManagers,
            @Option(names = "--slots", paramLabel = "S", defaultValue = "2",
                    description = "Slots per TaskManager (default: ${DEFAULT-VALUE}).") int slots,
            @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "90",
                    description = "How long to wait for the cluster (default: ${DEFAULT-VALUE}).") int timeoutSeconds,
            @Option(names = "--flink-lib", paramLabel = "DIR", defaultValue = "${env:PARQ_FLINK_LIB}", required = true,
                    description = "Flink's lib/ jars (the wrapper passes deploy/local/target/flink/lib).") Path lib,
            @Option(names = "--config", paramLabel = "FILE", defaultValue = "${env:PARQ_CLUSTER_CONFIG}", required = true,
                    description = "The configuration the cluster's is written from (the wrapper passes flink-conf/cluster/config.yaml).")
                    Path config,
            @Option(names = "--ha",
                    description = "Also a ZooKeeper server on 127.0.0.1, and ZooKeeper high availability for the JobManager:"
                            + " one killed can be replaced with add-jobmanager, and takes over its jobs.") boolean highAvailability,
            @Option(names = "--zookeeper-lib", paramLabel = "DIR", defaultValue = "${env:PARQ_ZOOKEEPER_LIB}",
                    description = "ZooKeeper's jars, for --ha (the wrapper passes deploy/local/target/zookeeper/lib).")
                    Path zooKeeperLib,
            @Option(names = "--jar", paramLabel = "JAR", defaultValue = "${env:PARQ_CLUSTER_JAR}",
                    description = "A jar every process has on its class path, copied at start (the wrapper passes"
                            + " job/target/parq-job.jar once it is built): jobs load parq's classes from it once per process"
                            + " instead of from their own jar once per job. Restart the cluster to take a new build.")
                    Path jar,
            @Option(names = "--warm-up", paramLabel = "MB", defaultValue = "100",
                    description = "With the jar, start ends with a warm-up job: flink run converts this many MB of generated"
                            + " NDJSON on all slots, then its input and output are deleted (default: ${DEFAULT-VALUE}; 0: none)."
                            + " A first job then runs about as fast as later ones, which it otherwise does at some 0.6x:"
                            + " Flink's task and network code and parq's parser and writer run cold in a new TaskManager."
                            + " A TaskManager added later starts cold.")
                    int warmUpMegabytes)
            throws Exception {
        if (highAvailability && zooKeeperLib == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ha needs --zookeeper-lib");
        }
        LocalCluster cluster = LocalCluster.start(new LocalCluster.Settings(lib, config, dir, taskManagers, slots, Map.of(),
                Duration.ofSeconds(timeoutSeconds), highAvailability ? zooKeeperLib : null, null, jar,
                ClassArchive.enabledByEnvironment(), warmUpMegabytes));
        cluster.warmUp().ifPresent(warmUp -> spec.commandLine().getErr().println("cluster: " + warmUp));
        return printStatus(cluster);
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "One line per process: role, pid, ports. Exits 0 only when every process is alive, ZooKeeper (with --ha)"
                    + " and the JobManager answer and every TaskManager is registered.")
    int status() throws Exception {
        return printStatus(LocalCluster.open(dir));
    }

    @Command(name = "add-taskmanager", mixinStandardHelpOptions = true,
            description = "Starts one more TaskManager and waits until it has registered.")
    int addTaskManager() throws Exception {
        LocalCluster cluster = LocalCluster.open(dir);
        cluster.addTaskManager();
        return printAdded(cluster);
    }

    @Command(name = "add-jobmanager", mixinStandardHelpOptions = true,
            description = "Starts a JobManager in place of one that died and waits until the TaskManagers have registered with it."
                    + " With --ha it has new ports, finds the running jobs through ZooKeeper and resumes them from their latest"
                    + " checkpoints; without, it takes the dead one's ports and starts with no jobs.")
    int addJobManager() throws Exception {
        LocalCluster cluster = LocalCluster.open(dir);
        cluster.addJobManager();
        return printAdded(cluster);
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "SIGTERM to the TaskManagers, then the JobManagers, then ZooKeeper; kills what is left after 15 s."
                    + " Before that, if the cluster finished a job, processes started without a class-data archive record one"
                    + " into DIR/cds/ (some seconds, once per JDK and build). Exits 0 also when nothing runs.")
    int stop() throws IOException {
        try {
            LocalCluster.open(dir).stop();
        } catch (IllegalStateException neverStarted) {
            spec.commandLine().getErr().println("cluster: " + neverStarted.getMessage());
        }
        return 0;
    }

    /**
     * After a process was added (which throws unless it came up): the status, and 0 even when the
     * status lists processes that died before, which the added one was to replace; those are named.
     */
    private int printAdded(LocalCluster cluster) throws Exception {
        printStatus(cluster);
        List<String> dead = cluster.notRunning();
        if (!dead.isEmpty()) {
            spec.commandLine().getErr().println("cluster: added; not running (their records stay until stop): "
                    + String.join(", ", dead));
        }
        return 0;
    }

    private int printStatus(LocalCluster cluster) throws Exception {
        LocalCluster.Status status = cluster.status();
        PrintWriter out = spec.commandLine().getOut();
        status.lines().forEach(out::println);
        out.flush();
        if (status.lines().isEmpty()) {
            spec.commandLine().getErr().println("cluster: nothing runs in " + cluster.dir());
        }
        return status.up() ? 0 : 1;
    }
}
