package dev.parq.job.cli;

import org.apache.flink.configuration.MemorySize;

import picocli.CommandLine;

/** Reads sizes in Flink's syntax: {@code 64mb}, {@code 256kb}, {@code 1gb}, or plain bytes. */
public final class MemorySizeConverter implements CommandLine.ITypeConverter<MemorySize> {
    @Override
    public MemorySize convert(String value) {
        MemorySize size;
        try {
            size = MemorySize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a size; write it like 64mb, 256kb or 1gb");
        }
        if (size.getBytes() <= 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' must be larger than zero");
        }
        return size;
    }
}
