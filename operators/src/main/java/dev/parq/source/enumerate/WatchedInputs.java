package dev.parq.source.enumerate;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Paths and globs looked at again every interval, for continuous ingest: what they match now is
 * what the enumerator follows. A path that matches nothing (yet, or any more) is no error here.
 */
public final class WatchedInputs implements InputDiscovery {
    private static final long serialVersionUID = 1L;

    private final List<String> inputs;
    private final Duration interval;

    public WatchedInputs(List<String> inputs, Duration interval) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs to watch");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the discover interval must be positive, got " + interval);
        }
        this.inputs = List.copyOf(inputs);
        this.interval = interval;
    }

    @Override
    public List<InputFile> initialFiles() throws IOException {
        return currentFiles();
    }

    @Override
    public boolean watching() {
        return true;
    }

    @Override
    public Duration discoverInterval() {
        return interval;
    }

    @Override
    public List<InputFile> currentFiles() throws IOException {
        Map<String, InputFile> files = new LinkedHashMap<>();
        for (String input : inputs) {
            List<InputFile> found;
            try {
                found = InputFiles.expand(List.of(input));
            } catch (InputNotFoundException nothingYet) {
                continue;
            }
            for (InputFile file : found) {
                files.putIfAbsent(file.path(), file);
            }
        }
        return new ArrayList<>(files.values());
    }
}
