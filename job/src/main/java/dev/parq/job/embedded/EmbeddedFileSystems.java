package dev.parq.job.embedded;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.HashMap;
import java.util.Map;

import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Flink's file systems for a run whose job runs in this process: the local one, and those of the
 * plugins in parq's {@code plugins/} folder ({@code plugins/s3-fs-hadoop/} for {@code s3://} and
 * {@code s3a://}), each in a class loader of its own as on a cluster, configured from the run's
 * configuration ({@code s3.endpoint} and the like, from config.yaml or {@code -D}). The S3 plugin is
 * a jar of its own, not in parq.jar: it brings its own Hadoop, Jackson and Guava, which must not
 * meet parq's.
 *
 * <p>Under {@code flink run} and in application mode nothing is done: Flink's client or JobManager
 * has set its file systems up from the cluster's {@code plugins/} and configuration, and the tasks
 * run on task managers that did the same.
 */
public final class EmbeddedFileSystems {

    /** The folder of plugin folders next to parq.jar (job/target/plugins in the build). */
    public static final String PLUGINS = "plugins";

    /**
     * How long S3A keeps at a store that fails, by what the run is. Two layers retry, and they
     * multiply: the AWS SDK ({@code fs.s3a.attempts.maximum} more tries of each request that meets a
     * refused or reset connection, no answer within {@code fs.s3a.connection.timeout}, a 5xx or a
     * {@code 503 Slow Down}, after a jittered pause from 100 ms up, from 500 ms up when throttled),
     * and S3A around most of its calls ({@code fs.s3a.retry.limit} more calls from {@code
     * fs.s3a.retry.interval} up; a throttled call {@code fs.s3a.retry.throttle.limit} more from
     * {@code fs.s3a.retry.throttle.interval} up; both pauses growing). The SDK's layer is needed: the
     * S3A of Flink's S3 plugin (Hadoop 3.3.4) opens an object again after a seek once, outside its
     * retries ({@code S3AInputStream.lazySeek} retries the first open of a stream only), and a
     * Parquet footer's read, a compaction's read of a part file, a split's next window are such
     * opens: with none of the SDK's tries, the first {@code 503 Slow Down} there fails the run. The
     * SDK's tries of a failed connection come out of a budget its client shares (a hundred retries,
     * one back per success), so they do not multiply without end when the store is gone; those of a
     * throttled request do not. {@code fs.s3a.connection.request.timeout} ends a request whose body
     * the store stops reading, which no read timeout sees: without it a part upload waits forever.
     * S3A's own defaults (eleven SDK tries times eight of S3A's, 200 s reads, no request timeout)
     * take many minutes to give up.
     */
    public enum Patience {
        /**
         * A command on a terminal ({@code convert}, {@code tensor}, {@code schema}): rides out
         * throttling and a dropped connection now and then, and gives up on a store that is gone
         * after five tries within a couple of seconds, or on one that does not answer after five reads
         * of 8 s, so that a wrong endpoint is an error, not a wait. The tries are the SDK's alone:
         * S3A's on top would multiply the waits for a request that is not answered.
         */
        COMMAND(Map.of(
                "fs.s3a.attempts.maximum", "4",
                "fs.s3a.retry.limit", "0",
                "fs.s3a.retry.throttle.limit", "3",
                "fs.s3a.retry.throttle.interval", "500ms",
                "fs.s3a.connection.timeout", "8000",
                "fs.s3a.connection.request.timeout", "60s")),
        /**
         * {@code ingest}, which runs for weeks with no restarts of its own: rides out a store that
         * is gone for a minute and a half or more (restarting, failing over) rather than stop, on
         * S3A's retries; a request unanswered is tried again after 30 s. Nine SDK tries: at a third
         * of the requests throttled, one in 20,000 of the opens S3A makes once still fails.
         */
        INGEST(Map.of(
                "fs.s3a.attempts.maximum", "8",
                "fs.s3a.retry.limit", "30",
                "fs.s3a.retry.interval", "3s",
                "fs.s3a.retry.throttle.limit", "8",
                "fs.s3a.retry.throttle.interval", "500ms",
                "fs.s3a.connection.timeout", "30000",
                "fs.s3a.connection.request.timeout", "60s"));

        private final Map<String, String> retries;

        Patience(Map<String, String> retries) {
            this.retries = retries;
        }

        /** The S3A keys this sets unless configured, with their values. */
        public Map<String, String> retries() {
            return retries;
        }
    }

    /**
     * What S3A does unless configured otherwise, whatever the run: a connection that is not made in
     * 5 s is retried (not waited for, S3A's 50 s), and reads are streams.
     */
    static final Map<String, String> S3_DEFAULTS = Map.of(
            "fs.s3a.connection.establish.timeout", "5000",
            // A reader reads its split's windows in order, after a few small reads around the
            // boundaries: S3A's "normal" policy takes those for random access and then asks for
            // 64 KiB per request (17 MiB/s against S3Mock here; 32 MiB/s sequential, local 30-55).
            "fs.s3a.experimental.input.fadvise", "sequential");

    private static final String CREDENTIALS_PROVIDER = "fs.s3a.aws.credentials.provider";
    /**
     * S3A's own chain of credential providers with the SDK's profile provider before the instance's
     * role, for the keys AWS CLI users keep in their shared credentials file. Only where that file
     * exists: without it the profile provider throws instead of passing on to the next provider.
     */
    private static final String PROVIDERS_WITH_PROFILE = String.join(",",
            "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider",
            "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
            "com.amazonaws.auth.EnvironmentVariableCredentialsProvider",
            "com.amazonaws.auth.profile.ProfileCredentialsProvider",
            "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider");

    private EmbeddedFileSystems() {}

    /**
     * Sets the file systems up for {@code config} if the job of a run with it runs in this process,
     * S3A's retries as {@code patience} says unless configured.
     */
    public static void initialize(Configuration config, Patience patience) {
        if (!(StreamExecutionEnvironment.getExecutionEnvironment(config) instanceof LocalStreamEnvironment)) {
            return;
        }
        Configuration withDefaults = new Configuration(config);
        Map<String, String> defaults = new HashMap<>(S3_DEFAULTS);
        defaults.putAll(patience.retries());
        defaults.forEach((key, value) -> {
            if (!isSet(config, key)) {
                withDefaults.setString(key, value);
            }
        });
        if (!isSet(config, CREDENTIALS_PROVIDER) && Files.isRegularFile(sharedCredentialsFile())) {
            withDefaults.setString(CREDENTIALS_PROVIDER, PROVIDERS_WITH_PROFILE);
        }
        FileSystem.initialize(withDefaults, pluginManager(withDefaults));
    }

    private static PluginManager pluginManager(Configuration config) {
        Path plugins = pluginsDirectory();
        if (plugins == null || !Files.isDirectory(plugins)) {
            return null;
        }
        try {
            return new DefaultPluginManager(new DirectoryBasedPluginFinder(plugins).findPlugins(),
                    CoreOptions.getPluginParentFirstLoaderPatterns(config));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the plugins in " + plugins + ": " + e.getMessage(), e);
        }
    }

    /** Whether an S3A key is configured, as {@code fs.s3a.*} or as Flink's {@code s3.*} or {@code s3a.*}. */
    private static boolean isSet(Configuration config, String key) {
        String shortKey = key.substring("fs.s3a.".length());
        return config.containsKey(key) || config.containsKey("s3." + shortKey) || config.containsKey("s3a." + shortKey);
    }

    /** Where the AWS SDK looks for the shared credentials file. */
    private static Path sharedCredentialsFile() {
        String overridden = System.getenv("AWS_CREDENTIAL_PROFILES_FILE");
        return overridden != null && !overridden.isBlank() ? Path.of(overridden)
                : Path.of(System.getProperty("user.home"), ".aws", "credentials");
    }

    /** $FLINK_PLUGINS_DIR if set, else {@code plugins/} beside parq.jar (or beside the classes of a build). */
    static Path pluginsDirectory() {
        String fromEnvironment = System.getenv(ConfigConstants.ENV_FLINK_PLUGINS_DIR);
        if (fromEnvironment != null) {
            return Path.of(fromEnvironment);
        }
        CodeSource source = EmbeddedFileSystems.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path code = Path.of(source.getLocation().toURI());
            return code.getParent() == null ? null : code.getParent().resolve(PLUGINS);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
