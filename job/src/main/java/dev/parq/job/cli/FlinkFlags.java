package dev.parq.job.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.flink.configuration.Configuration;

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
     * The configuration file's keys with {@code -D}'s over them; the file systems of a job that runs in
     * this process are set up from it.
     */
    Configuration load() throws ConversionException {
        Configuration config = FlinkSettings.load();
        properties.forEach(config::setString);
        EmbeddedFileSystems.initialize(config);
        return config;
    }
}
