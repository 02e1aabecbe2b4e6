package dev.parq.source;

import java.time.Duration;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;

/** Every setting of the NDJSON source, with its default. */
public final class NdjsonSourceOptions {

    public static final String SPLIT_SIZE_DEFAULT = "64mb";
    public static final String CHUNK_SIZE_DEFAULT = "4mb";

    public static final ConfigOption<MemorySize> SPLIT_SIZE = ConfigOptions.key("parq.source.split-size")
            .memoryType()
            .defaultValue(MemorySize.parse(SPLIT_SIZE_DEFAULT))
            .withDescription("Nominal size of a split: each input file is cut into windows of this size,"
                    + " each end moved forward to the next line start.");

    public static final ConfigOption<MemorySize> CHUNK_SIZE = ConfigOptions.key("parq.source.chunk-size")
            .memoryType()
            .defaultValue(MemorySize.parse(CHUNK_SIZE_DEFAULT))
            .withDescription("How much of a split a reader maps and hands to the parser at a time;"
                    + " bounds the resident mapped pages per reader.");

    public static final String START_AT_DEFAULT = "beginning";
    public static final String ROTATE_WAIT_DEFAULT = "5s";

    /** Where following starts in the files there are when a run starts without a checkpoint to resume from. */
    public enum StartAt {
        BEGINNING,
        END
    }

    public static final ConfigOption<StartAt> START_AT = ConfigOptions.key("parq.source.start-at")
            .enumType(StartAt.class)
            .defaultValue(StartAt.BEGINNING)
            .withDescription("ingest: where a first start reads the files already there: from their beginning,"
                    + " or only what is appended from now on (end). Files found later are read from their beginning.");

    public static final ConfigOption<Duration> IGNORE_OLDER = ConfigOptions.key("parq.source.ignore-older")
            .durationType()
            .noDefaultValue()
            .withDescription("ingest: files not modified for this long are not started on (a rotated file long"
                    + " finished, say), and files read to their end are forgotten once that old; unset: every file"
                    + " is read and followed.");

    public static final ConfigOption<Duration> ROTATE_WAIT = ConfigOptions.key("parq.source.rotate-wait")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(ROTATE_WAIT_DEFAULT))
            .withDescription("ingest: a file renamed away (rotated) that has not grown for this long has its last"
                    + " line taken as complete, even without a line feed.");

    public static final String LOOK_BACK_DEFAULT = "10min";

    public static final ConfigOption<Duration> LOOK_BACK = ConfigOptions.key("parq.source.look-back")
            .durationType()
            .defaultValue(TimeUtils.parseDuration(LOOK_BACK_DEFAULT))
            .withDescription("ingest from an object store: how far below the newest object's modification time"
                    + " (the store's clock, when an upload completed) new objects are still looked for. An object"
                    + " that turns up older than that (an upload that completed that late) is reported and not"
                    + " read; the state holds the objects of this window.");

    public static final String KEY_ORDER_DEFAULT = "none";

    /** What the keys of followed objects promise about the order objects land in. */
    public enum KeyOrder {
        /** Nothing: every discovery lists the whole prefix. */
        NONE,
        /** Keys sort in the order the objects land (date-named folders, timestamped names). */
        TIME
    }

    public static final ConfigOption<KeyOrder> KEY_ORDER = ConfigOptions.key("parq.source.key-order")
            .enumType(KeyOrder.class)
            .defaultValue(KeyOrder.NONE)
            .withDescription("ingest from an object store: none: every discovery lists the whole prefix, and every"
                    + " object that lands within the look-back is read. time: the keys sort in the order the objects"
                    + " land (date-named folders such as 2026-12-06/ or app/2026/12/06/, or timestamped names): a"
                    + " folder whose keys all sort below the lowest key within the look-back is not listed again,"
                    + " so a discovery lists the recent folders only; an object that lands later under such a"
                    + " folder is not read.");

    private NdjsonSourceOptions() {}

    /**
     * Checks every setting of the source in {@code config}: a split of at least one byte, a chunk
     * from 4 KiB (a page or so) to 1 GiB (a reader maps one at a time).
     *
     * @throws InvalidOptionException naming the first key whose value is not accepted
     */
    public static void validate(ReadableConfig config) {
        OptionChecks.size(config, SPLIT_SIZE, new MemorySize(1), MemorySize.MAX_VALUE);
        OptionChecks.size(config, CHUNK_SIZE, MemorySize.parse("4kb"), MemorySize.parse("1gb"));
        OptionChecks.read(config, START_AT);
        OptionChecks.read(config, KEY_ORDER);
        OptionChecks.duration(config, ROTATE_WAIT, Duration.ZERO);
        OptionChecks.duration(config, LOOK_BACK, Duration.ZERO);
        if (config.getOptional(IGNORE_OLDER).isPresent()) {
            OptionChecks.duration(config, IGNORE_OLDER, Duration.ofSeconds(1));
        }
    }
}
