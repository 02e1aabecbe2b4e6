package dev.parq.sink.partition;

import java.time.Duration;
import java.time.ZoneId;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;

/** Every setting of partitioned output, with its default. */
public final class PartitionOptions {

    public static final String TIME_ZONE_DEFAULT = "UTC";
    public static final int MAX_OPEN_DEFAULT = 64;
    public static final String COMMIT_DELAY_DEFAULT = "1h";

    public static final ConfigOption<String> PARTITION_BY = ConfigOptions.key("parq.partition.by")
            .stringType()
            .noDefaultValue()
            .withDescription("Hive-style partition folders, comma-separated for nesting: day(COL), hour(COL),"
                    + " month(COL) or year(COL) of a TIMESTAMP, TIMESTAMP_LTZ or DATE column, or a scalar"
                    + " column, whose value is then the folder's and is not stored in the files."
                    + " Default: no partitions.");

    public static final ConfigOption<String> TIME_ZONE = ConfigOptions.key("parq.partition.time-zone")
            .stringType()
            .defaultValue(TIME_ZONE_DEFAULT)
            .withDescription("The time zone in which day(), hour(), month() and year() of a TIMESTAMP_LTZ"
                    + " column are taken, as a zone id (Europe/Paris) or an offset (+02:00).");

    public static final ConfigOption<Integer> MAX_OPEN = ConfigOptions.key("parq.partition.max-open")
            .intType()
            .defaultValue(MAX_OPEN_DEFAULT)
            .withDescription("Partitions a writer keeps a file open for at once; past this, the least recently"
                    + " written one is closed, and a row for it later starts a new file.");

    public static final ConfigOption<Duration> COMMIT_DELAY = ConfigOptions.key("parq.partition.commit-delay")
            .durationType()
            .defaultValue(Duration.ofHours(1))
            .withDescription("ingest: a time partition gets its _SUCCESS file once the event-time watermark has"
                    + " passed the partition's end by this much; rows arriving later still land and rewrite it.");

    private PartitionOptions() {}

    /** Checks every setting in {@code config}; the partition expressions are checked against the schema later. */
    public static void validate(ReadableConfig config) {
        config.getOptional(PARTITION_BY);
        String zone = OptionChecks.read(config, TIME_ZONE);
        try {
            ZoneId.of(zone);
        } catch (RuntimeException e) {
            throw new InvalidOptionException(TIME_ZONE.key(),
                    "not a time zone id (Europe/Paris) or offset (+02:00): '" + zone + "'", e);
        }
        OptionChecks.integer(config, MAX_OPEN, 1, 100_000);
        OptionChecks.duration(config, COMMIT_DELAY, Duration.ZERO);
    }
}
