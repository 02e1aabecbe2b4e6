package dev.parq.source;

import java.util.List;

import org.apache.flink.configuration.MemorySize;

/** Builds an {@link NdjsonSource}; unset settings take the defaults of {@link NdjsonSourceOptions}. */
public final class NdjsonSourceBuilder {

    private final List<String> inputs;
    private long splitSize = NdjsonSourceOptions.SPLIT_SIZE.defaultValue().getBytes();
    private long chunkSize = NdjsonSourceOptions.CHUNK_SIZE.defaultValue().getBytes();

    NdjsonSourceBuilder(List<String> inputs) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs given");
        }
        this.inputs = inputs;
    }

    public NdjsonSourceBuilder splitSize(MemorySize size) {
        this.splitSize = positive(size, "split size");
        return this;
    }

    public NdjsonSourceBuilder chunkSize(MemorySize size) {
        this.chunkSize = positive(size, "chunk size");
        return this;
    }

    public NdjsonSource build() {
        return new NdjsonSource(inputs, splitSize, chunkSize);
    }

    private static long positive(MemorySize size, String what) {
        if (size.getBytes() <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + size);
        }
        return size.getBytes();
    }
}
