package dev.parq.job.pipeline;

import java.time.Duration;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;

/** Where a run's configuration comes from, and what parq sets in it for its jobs. */
public final class FlinkSettings {

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
        flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        flink.set(PipelineOptions.OBJECT_REUSE, true);
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
