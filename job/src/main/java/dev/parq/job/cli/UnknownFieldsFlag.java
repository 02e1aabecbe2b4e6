package dev.parq.job.cli;

import org.apache.flink.configuration.Configuration;

import dev.parq.parse.UnknownFieldsMode;
import dev.parq.parse.operator.ParseOptions;
import picocli.CommandLine.Option;

/** The flag of what becomes of the keys not in the schema, shared by convert and ingest. */
public final class UnknownFieldsFlag {

    @Option(names = "--unknown-fields", paramLabel = "MODE",
            description = "Keys not in the schema are counted in the manifest either way. drop: skip them;"
                    + " keep: add the column " + UnknownFieldsMode.COLUMN + " MAP<STRING, STRING>, per row each"
                    + " such key's path (user.email) to its value's JSON text as written; keys inside arrays"
                    + " are counted only. Default: " + ParseOptions.UNKNOWN_FIELDS_DEFAULT + ".")
    String mode;

    /** Sets the flag, if given, on {@code config}; an unknown mode is an IllegalArgumentException. */
    void applyTo(Configuration config) {
        if (mode != null) {
            config.set(ParseOptions.UNKNOWN_FIELDS, UnknownFieldsMode.parse(mode));
        }
    }
}
