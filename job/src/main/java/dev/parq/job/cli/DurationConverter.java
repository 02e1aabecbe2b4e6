package dev.parq.job.cli;

import java.time.Duration;

import org.apache.flink.util.TimeUtils;

import picocli.CommandLine;

/** Reads durations in Flink's syntax: {@code 10s}, {@code 500ms}, {@code 2min}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration; write it like 10s, 500ms or 2min");
        }
    }
}
