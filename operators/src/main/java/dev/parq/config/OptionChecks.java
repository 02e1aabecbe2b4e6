package dev.parq.config;

import java.time.Duration;
import java.util.Collection;
import java.util.Locale;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

/**
 * Checks of one option's value, shared by the components' options classes, each of which declares
 * what its own keys accept. A value that does not even parse (a size of "lots") is reported the same
 * way, by key, instead of as Flink's conversion error.
 */
public final class OptionChecks {

    private OptionChecks() {}

    /** The value of {@code option}, or an {@link InvalidOptionException} naming its key if it does not parse. */
    public static <T> T read(ReadableConfig config, ConfigOption<T> option) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(option.key(), "cannot read the value: " + rootMessage(e), e);
        }
    }

    /** A size from {@code min} to {@code max}, both included. */
    public static MemorySize size(ReadableConfig config, ConfigOption<MemorySize> option, MemorySize min,
            MemorySize max) {
        MemorySize value = read(config, option);
        if (value.getBytes() < min.getBytes() || value.getBytes() > max.getBytes()) {
            String range = max.getBytes() == Long.MAX_VALUE ? "at least " + spelled(min)
                    : "from " + spelled(min) + " to " + spelled(max);
            throw new InvalidOptionException(option.key(), "must be a size " + range + ", got " + spelled(value), null);
        }
        return value;
    }

    /** A duration of at least {@code min}. */
    public static Duration duration(ReadableConfig config, ConfigOption<Duration> option, Duration min) {
        Duration value = read(config, option);
        if (value.compareTo(min) < 0) {
            throw new InvalidOptionException(option.key(), "must be at least " + TimeUtils.formatWithHighestUnit(min)
                    + ", got " + TimeUtils.formatWithHighestUnit(value), null);
        }
        return value;
    }

    /** A whole number from {@code min} to {@code max}, both included. */
    public static int integer(ReadableConfig config, ConfigOption<Integer> option, int min, int max) {
        int value = read(config, option);
        if (value < min || value > max) {
            throw new InvalidOptionException(option.key(),
                    String.format(Locale.ROOT, "must be from %d to %d, got %d", min, max, value), null);
        }
        return value;
    }

    /** One of {@code accepted}, in any case. */
    public static String oneOf(ReadableConfig config, ConfigOption<String> option, Collection<String> accepted) {
        String value = read(config, option);
        for (String name : accepted) {
            if (name.equalsIgnoreCase(value)) {
                return value;
            }
        }
        throw new InvalidOptionException(option.key(),
                "must be one of " + String.join(", ", accepted) + ", got '" + value + "'", null);
    }

    /** A size as a user writes it: in the largest unit that divides it, "64mb", "4kb", "100b". */
    static String spelled(MemorySize size) {
        long bytes = size.getBytes();
        String[] units = {"tb", "gb", "mb", "kb"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (10 * (units.length - i));
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + units[i];
            }
        }
        return bytes + "b";
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage()).replace('\n', ' ');
    }
}
