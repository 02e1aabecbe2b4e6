package dev.parq.job.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.Configuration;

import dev.parq.io.Locations;
import dev.parq.job.embedded.EmbeddedFileSystems;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;

/**
 * {@code -D key=value}, as {@code flink run -D} has it: any Flink key (the S3 file system's
 * {@code s3.endpoint}, {@code s3.access-key}, ...) or parq key, over $FLINK_CONF_DIR/config.yaml;
 * a command's own flags win over both.
 */
public final class FlinkFlags {

    @picocli.CommandLine.Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "A Flink configuration key, over config.yaml (e.g. -D s3.endpoint=http://127.0.0.1:9000);"
                    + " may be repeated.")
    Map<String, String> properties = new LinkedHashMap<>();

    /**
     * The configuration file's keys with {@code -D}'s over them. If any of {@code locations} (the
     * command's inputs and outputs; nulls are skipped) is a URI, the file systems of a job that runs
     * in this process are set up from it, as patient with a store that fails as {@code patience}
     * says; a run of local paths only leaves them as they are, and does not spend its start-up on
     * loading the plugins.
     */
    Configuration load(List<String> locations, EmbeddedFileSystems.Patience patience) throws ConversionException {
        Configuration config = FlinkSettings.load();
        properties.forEach(config::setString);
        if (locations.stream().anyMatch(location -> location != null && !Locations.isLocal(location))) {
            EmbeddedFileSystems.initialize(config, patience);
        }
        return config;
    }
}
