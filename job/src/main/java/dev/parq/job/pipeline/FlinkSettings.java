package dev.parq.job.pipeline;

import java.time.Duration;
import java.util.List;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Where a run's configuration comes from, and what parq sets in it for its jobs. */
public final class FlinkSettings {

    /** Where an ingest run's checkpoints and savepoints go, under its state directory. */
    public static final String CHECKPOINTS = "checkpoints";
    public static final String SAVEPOINTS = "savepoints";

    private FlinkSettings() {}

    /**
     * $FLINK_CONF_DIR/config.yaml when set (parq.* keys included), else an empty configuration.
     *
     * @throws ConversionException a usage error naming the file, if it cannot be read
     */
    public static Configuration load() throws ConversionException {
        String directory = System.getenv("FLINK_CONF_DIR");
        if (directory == null) {
            return new Configuration();
        }
        try {
            return GlobalConfiguration.loadConfiguration(directory);
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw ConversionException.usage("cannot read the Flink configuration in " + directory
                    + " (FLINK_CONF_DIR): " + e.getMessage()
                    + (cause != e ? " " + String.valueOf(cause.getMessage()).replace('\n', ' ') : ""));
        }
    }

    /**
     * The configuration of a bounded job (every command today): batch execution with object reuse
     * and, unless configured, no restarts and heartbeats once a second.
     */
    public static Configuration forBoundedJob(Configuration config) {
        Configuration flink = new Configuration(config);
        // A batch job takes no checkpoints, and Flink refuses one given a checkpoint interval during a
        // backlog (it must be at least the interval, which is unset): a key set for ingest in a shared
        // config.yaml would stop every conversion.
        flink.removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL_DURING_BACKLOG);
        flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        flink.set(PipelineOptions.OBJECT_REUSE, true);
        withClustersJar(flink);
        if (!config.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            // A bad line fails the same way on every attempt: fail fast, with its message.
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        if (!config.contains(HeartbeatManagerOptions.HEARTBEAT_INTERVAL)) {
            // Accumulators reach the client with task heartbeats: once a second keeps progress live.
            flink.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(1));
        }
        return flink;
    }

    /**
     * The configuration of an unbounded job (ingest): streaming execution, a checkpoint every
     * {@code interval} kept in {@code stateDir} (the last two, retained when the job is cancelled or
     * the process dies, so that the next start resumes from them), savepoints there too, and the
     * job restored from {@code restoreFrom} when it is not null.
     */
    public static Configuration forUnboundedJob(Configuration config, Duration interval,
            Path stateDir, String restoreFrom) {
        Configuration flink = new Configuration(config);
        flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        flink.set(PipelineOptions.OBJECT_REUSE, true);
        withClustersJar(flink);
        flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        flink.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        flink.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, uri(new Path(stateDir, CHECKPOINTS)));
        flink.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, uri(new Path(stateDir, SAVEPOINTS)));
        flink.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        if (!config.contains(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS)) {
            // The newest and the one before, should the newest be unreadable.
            flink.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 2);
        }
        if (!config.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        if (restoreFrom != null) {
            flink.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom);
        }
        return flink;
    }

    /**
     * Without {@link ParqOptions#SHIP_JAR}, no jar goes with the job: a job's configuration is laid
     * over that of the client that runs parq, whose {@code pipeline.jars} names the jar {@code flink
     * run} was given, and an empty list there sends none. (An embedded job sends no jar anyway.)
     */
    private static void withClustersJar(Configuration flink) {
        if (!flink.get(ParqOptions.SHIP_JAR)) {
            flink.set(PipelineOptions.JARS, List.of());
        }
    }

    /** A path as Flink's state keys and savepoint requests take it: with its scheme, {@code file:} for a local one. */
    public static String uri(Path path) {
        return path.toUri().getScheme() == null ? java.nio.file.Path.of(path.toUri().getPath()).toUri().toString()
                : path.toUri().toString();
    }

    /**
     * The snapshot the user named to restore from, or null: {@code execution.state-recovery.path} in
     * {@code config}, or in the configuration of the client that runs parq, where {@code flink run -s}
     * puts it.
     *
     * @throws ConversionException a usage error if its scheme has no file system here
     */
    public static Path requestedRestore(Configuration config) throws ConversionException {
        String path = config.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                .or(() -> StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration()
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .orElse(null);
        if (path == null) {
            return null;
        }
        return Storage.resolve(path, "the snapshot to resume from");
    }

    /**
     * The configuration of the embedded cluster that a bounded job of {@code parallelism} (0 for the
     * configuration's) will ask for, known before the command line is parsed: the early cluster's.
     */
    public static Configuration forEarlyCluster(int parallelism) {
        Configuration config;
        try {
            config = load();
        } catch (ConversionException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (parallelism > 0) {
            config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        return forBoundedJob(config);
    }
}
