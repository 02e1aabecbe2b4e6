package dev.parq.parse.operator;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

import dev.parq.config.InvalidOptionException;
import dev.parq.config.OptionChecks;
import dev.parq.parse.UnknownFieldsMode;

/** Every setting of the parse stage, with its default. */
public final class ParseOptions {

    public static final String ON_ERROR_DEFAULT = "fail";
    public static final String UNKNOWN_FIELDS_DEFAULT = "drop";
    public static final int BATCH_ROWS_DEFAULT = 4096;
    /** A batch of this many rows of one-byte lines still fits an Arrow vector's offsets comfortably. */
    public static final int BATCH_ROWS_MAX = 1 << 20;

    public static final ConfigOption<OnError> ON_ERROR = ConfigOptions.key("parq.on-error")
            .enumType(OnError.class)
            .defaultValue(OnError.parse(ON_ERROR_DEFAULT))
            .withDescription("What a bad line does: FAIL the run, or REJECT it to the rejected-lines output.");

    public static final ConfigOption<UnknownFieldsMode> UNKNOWN_FIELDS = ConfigOptions.key("parq.unknown-fields")
            .enumType(UnknownFieldsMode.class)
            .defaultValue(UnknownFieldsMode.parse(UNKNOWN_FIELDS_DEFAULT))
            .withDescription("convert and ingest: what becomes of the keys not in the schema, which are counted"
                    + " either way. DROP skips them; KEEP adds the column " + UnknownFieldsMode.COLUMN
                    + " MAP<STRING, STRING>: per row, each such key's path (a ROW's keys as dotted paths) to its"
                    + " value's JSON text as written; keys inside arrays and maps are counted only.");

    public static final ConfigOption<Integer> BATCH_ROWS = ConfigOptions.key("parq.parse.batch-rows")
            .intType()
            .defaultValue(BATCH_ROWS_DEFAULT)
            .withDescription("Most rows per Arrow batch handed from the parser to the writer; a batch also"
                    + " ends at 8 MiB of input, so that rows of long values make smaller batches.");

    private ParseOptions() {}

    /**
     * Checks every setting of the parse stage in {@code config}.
     *
     * @throws InvalidOptionException naming the first key whose value is not accepted
     */
    public static void validate(ReadableConfig config) {
        OptionChecks.read(config, ON_ERROR);
        OptionChecks.read(config, UNKNOWN_FIELDS);
        OptionChecks.integer(config, BATCH_ROWS, 1, BATCH_ROWS_MAX);
    }
}
