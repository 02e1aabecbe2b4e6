package dev.parq.job.embedded;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.apache.flink.client.deployment.executors.LocalExecutor;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.ResourceManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import dev.parq.job.cluster.RestCheckpoints;
import dev.parq.source.enumerator.CheckpointRequest;

/**
 * Where a run's job executes. Under {@code flink run} (or any client that provides its own
 * context) that is the context's cluster, unchanged. Run embedded ({@code java -jar}), the job
 * gets a Flink mini cluster as it would from {@link LocalStreamEnvironment}, except that the
 * cluster starts in the background as soon as the run begins: its start-up (a second or so of
 * RPC and task manager set-up) then overlaps schema inference and the pipeline's construction
 * instead of following them.
 *
 * <p>The early cluster is the one Flink's {@link LocalExecutor} would have created: same
 * configuration, one slot per parallel subtask. Should the submitted job ask for a different
 * cluster (its maximum parallelism set elsewhere), the early one is shut down and Flink's own is
 * used. Close this object when the run ends; it shuts the early cluster down if no job took it.
 */
public final class JobEnvironment implements AutoCloseable {

    /**
     * The cluster {@link #prestart} began to start (null if it started none), until {@link #begin}
     * takes it; not yet complete while {@link #prestart} is on its way ({@link #expectPrestart}).
     */
    private static final AtomicReference<CompletableFuture<EarlyMiniCluster>> PRESTARTED = new AtomicReference<>();

    /** Where the embedded cluster's servers listen unless configured: this machine only. */
    static final String LOOPBACK = "127.0.0.1";

    /** Network buffers of the embedded cluster unless configured, per slot (and at least 16 of them). */
    static final MemorySize NETWORK_MEMORY_PER_SLOT = MemorySize.parse("1mb");

    /** Read buffers for batch exchanges of the embedded cluster unless configured, per slot (8 MiB at least). */
    static final MemorySize BATCH_SHUFFLE_READ_MEMORY_PER_SLOT = MemorySize.parse("1mb");

    private final StreamExecutionEnvironment env;
    private final EarlyMiniCluster early;

    private JobEnvironment(StreamExecutionEnvironment env, EarlyMiniCluster early) {
        this.env = env;
        this.early = early;
    }

    /**
     * The environment for {@code flinkConfig}; when embedded, with its cluster already starting.
     * Without {@code parallelism.default} in it, Flink's default parallelism holds (all cores when
     * embedded).
     */
    public static JobEnvironment begin(Configuration flinkConfig) {
        int parallelism = flinkConfig.getOptional(CoreOptions.DEFAULT_PARALLELISM).orElse(0);
        StreamExecutionEnvironment probe = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfig);
        if (!(probe instanceof LocalStreamEnvironment)) {
            if (parallelism > 0) {
                probe.setParallelism(parallelism);
            }
            return new JobEnvironment(probe, null);
        }
        int slots = slots(flinkConfig, probe);
        Configuration local = localConfiguration(flinkConfig, slots);
        MiniClusterConfiguration wanted = clusterConfiguration(local, slots);
        CompletableFuture<EarlyMiniCluster> prestarted = PRESTARTED.getAndSet(null);
        EarlyMiniCluster early = prestarted == null ? null : prestarted.join();
        if (early != null && !early.sameCluster(wanted)) {
            early.closeAsync();
            early = null;
        }
        if (early == null) {
            early = new EarlyMiniCluster(wanted);
            early.startInBackground();
        }
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(new ExecutorLoader(local, early), local, classLoader);
        env.setParallelism(slots);
        return new JobEnvironment(env, early);
    }

    /**
     * Starts the embedded cluster for {@code flinkConfig} in the background before the command line
     * is even parsed, when {@link #begin} is expected to ask for it: the cluster's start is the
     * longest part of a run's start-up. {@link #begin} takes it if it asks for the same cluster
     * (the same configuration, parq's own keys aside), and otherwise shuts it down and starts
     * another. Returns that cluster, or null (and does nothing) unless the job would run
     * embedded.
     */
    public static EarlyMiniCluster prestart(Configuration flinkConfig) {
        CompletableFuture<EarlyMiniCluster> slot = PRESTARTED.get();
        if (slot == null || slot.isDone()) {
            CompletableFuture<EarlyMiniCluster> fresh = new CompletableFuture<>();
            CompletableFuture<EarlyMiniCluster> previous = PRESTARTED.getAndSet(fresh);
            if (previous != null && previous.isDone() && previous.getNow(null) != null) {
                previous.getNow(null).closeAsync();
            }
            slot = fresh;
        }
        EarlyMiniCluster early = null;
        try {
            StreamExecutionEnvironment probe = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfig);
            if (probe instanceof LocalStreamEnvironment) {
                int slots = slots(flinkConfig, probe);
                early = new EarlyMiniCluster(clusterConfiguration(localConfiguration(flinkConfig, slots), slots));
                early.startInBackground();
            }
            return early;
        } finally {
            slot.complete(early);
        }
    }

    /**
     * Says that {@link #prestart} is about to be called on another thread: {@link #begin} then
     * waits for it, instead of starting a second cluster if it comes first.
     */
    public static void expectPrestart() {
        PRESTARTED.set(new CompletableFuture<>());
    }

    /** After {@link #expectPrestart}: no cluster is coming (the prestart failed before it began). */
    public static void noPrestart() {
        CompletableFuture<EarlyMiniCluster> slot = PRESTARTED.get();
        if (slot != null) {
            slot.complete(null);
        }
    }

    /** The parallel subtasks of an embedded run: {@code parallelism.default} if set, else the local environment's. */
    private static int slots(Configuration flinkConfig, StreamExecutionEnvironment local) {
        int parallelism = flinkConfig.getOptional(CoreOptions.DEFAULT_PARALLELISM).orElse(0);
        return parallelism > 0 ? parallelism : local.getParallelism();
    }

    /** The configuration of an embedded run of {@code slots} parallel subtasks. */
    private static Configuration localConfiguration(Configuration flinkConfig, int slots) {
        Configuration local = new Configuration(flinkConfig);
        local.set(DeploymentOptions.TARGET, LocalExecutor.NAME);
        local.set(DeploymentOptions.ATTACHED, true);
        local.set(CoreOptions.DEFAULT_PARALLELISM, slots);
        // Source, parser and writer are one chained task: only the writers' committables cross the
        // network. Flink's local default of 64 MiB of buffers, allocated (and resident) up front,
        // would be a tenth of the process's memory for nothing.
        MemorySize network = NETWORK_MEMORY_PER_SLOT.multiply(Math.max(16, slots));
        for (ConfigOption<MemorySize> option : List.of(
                TaskManagerOptions.NETWORK_MEMORY_MIN, TaskManagerOptions.NETWORK_MEMORY_MAX)) {
            if (!local.contains(option)) {
                local.set(option, network);
            }
        }
        // Reading the blocking exchange of committables: Flink reserves 64 MiB for it and touches
        // all of it when the first reader starts, for a few kilobytes of commit messages.
        if (!local.contains(TaskManagerOptions.NETWORK_BATCH_SHUFFLE_READ_MEMORY)) {
            local.set(TaskManagerOptions.NETWORK_BATCH_SHUFFLE_READ_MEMORY,
                    BATCH_SHUFFLE_READ_MEMORY_PER_SLOT.multiply(Math.max(8, slots)));
        }
        // The one task manager has registered its slots by the time the job asks for them; the
        // resource manager's default wait of 50 ms before matching them is pure delay here.
        if (!local.contains(ResourceManagerOptions.REQUIREMENTS_CHECK_DELAY)) {
            local.set(ResourceManagerOptions.REQUIREMENTS_CHECK_DELAY, Duration.ZERO);
        }
        // The embedded cluster serves this process alone, yet its BLOB server and REST endpoint
        // listen on TCP ports, by default on every interface of the machine: here on loopback.
        if (!local.contains(JobManagerOptions.BIND_HOST)) {
            local.set(JobManagerOptions.BIND_HOST, LOOPBACK);
        }
        if (!local.contains(RestOptions.BIND_ADDRESS)) {
            local.set(RestOptions.BIND_ADDRESS, LOOPBACK);
        }
        // The cluster's working directory is deleted when the cluster has shut down, which a
        // command that exits once its job is done does not wait for: it goes into a directory of
        // this JVM's that is deleted at exit, so that runs leave nothing behind in /tmp.
        if (!local.contains(ClusterOptions.PROCESS_WORKING_DIR_BASE)) {
            local.set(ClusterOptions.PROCESS_WORKING_DIR_BASE, ScratchDirectory.get().toString());
        }
        return local;
    }

    public StreamExecutionEnvironment env() {
        return env;
    }

    /** Whether the job runs in this process (an embedded cluster), not on a cluster a client points at. */
    public boolean embedded() {
        return early != null;
    }

    /** Whether the client leaves the job running once submitted ({@code flink run -d}), not waiting for its end. */
    public boolean detached() {
        return !env.getConfiguration().get(DeploymentOptions.ATTACHED);
    }

    /**
     * The job id the job will be given, when it is fixed in advance: in Flink's application mode with
     * high availability the JobManager fixes it, and runs {@code main()} again under it after a
     * failover. Null when Flink picks a fresh id at submission.
     */
    public String fixedJobId() {
        return env.getConfiguration().getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID).orElse(null);
    }

    /**
     * Whom the job's source asks for a checkpoint once it has read a backlog: the embedded cluster
     * of this process, or the cluster the client submits to, through its REST API.
     */
    public CheckpointRequest checkpointRequest() {
        return early != null ? EmbeddedCheckpoints.INSTANCE : RestCheckpoints.of(env.getConfiguration());
    }

    /** The cluster started ahead of the job, or null when not embedded. */
    EarlyMiniCluster earlyCluster() {
        return early;
    }

    /** Shuts the early cluster down unless a job took it (that job's client shuts it down). */
    @Override
    public void close() {
        if (early != null && !early.taken()) {
            early.closeAsync();
        }
    }

    /** The cluster Flink's local executor builds for a job of {@code slots} parallel subtasks. */
    static MiniClusterConfiguration clusterConfiguration(Configuration config, int slots) {
        Configuration cluster = new Configuration(config);
        if (!cluster.contains(RestOptions.BIND_PORT)) {
            cluster.set(RestOptions.BIND_PORT, "0");
        }
        int taskManagers = cluster.get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS);
        int slotsPerTaskManager = cluster.getOptional(TaskManagerOptions.NUM_TASK_SLOTS)
                .orElse((slots + taskManagers - 1) / taskManagers);
        return new MiniClusterConfiguration.Builder()
                .setConfiguration(cluster)
                .setNumTaskManagers(taskManagers)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .setNumSlotsPerTaskManager(slotsPerTaskManager)
                .build();
    }

    /** Hands Flink a local executor whose cluster is the early one. */
    private static final class ExecutorLoader implements PipelineExecutorServiceLoader, PipelineExecutorFactory {

        private final Configuration config;
        private final EarlyMiniCluster early;

        ExecutorLoader(Configuration config, EarlyMiniCluster early) {
            this.config = config;
            this.early = early;
        }

        @Override
        public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
            return this;
        }

        @Override
        public Stream<String> getExecutorNames() {
            return Stream.of(LocalExecutor.NAME);
        }

        @Override
        public String getName() {
            return LocalExecutor.NAME;
        }

        @Override
        public boolean isCompatibleWith(Configuration configuration) {
            return LocalExecutor.NAME.equalsIgnoreCase(configuration.get(DeploymentOptions.TARGET));
        }

        @Override
        public PipelineExecutor getExecutor(Configuration configuration) {
            return LocalExecutor.createWithFactory(config, early::take);
        }
    }
}
