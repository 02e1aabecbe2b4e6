package dev.parq.source;

import java.time.Duration;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerator.Following;

/** Builds an {@link NdjsonSource}; unset settings take the defaults of {@link NdjsonSourceOptions}. */
public final class NdjsonSourceBuilder {

    private final InputDiscovery discovery;
    private Following following = following(new Configuration());
    private long splitSize = NdjsonSourceOptions.SPLIT_SIZE.defaultValue().getBytes();
    private long chunkSize = NdjsonSourceOptions.CHUNK_SIZE.defaultValue().getBytes();

    NdjsonSourceBuilder(InputDiscovery discovery) {
        this.discovery = discovery;
    }

    public NdjsonSourceBuilder splitSize(MemorySize size) {
        this.splitSize = positive(size, "split size");
        return this;
    }

    public NdjsonSourceBuilder chunkSize(MemorySize size) {
        this.chunkSize = positive(size, "chunk size");
        return this;
    }

    /** How watched inputs are started on; see {@link Following}. */
    public NdjsonSourceBuilder following(Following settings) {
        this.following = settings;
        return this;
    }

    /** Takes every setting of {@link NdjsonSourceOptions} from {@code config} (defaults where unset). */
    public NdjsonSourceBuilder configure(ReadableConfig config) {
        return splitSize(config.get(NdjsonSourceOptions.SPLIT_SIZE))
                .chunkSize(config.get(NdjsonSourceOptions.CHUNK_SIZE))
                .following(following(config));
    }

    private static Following following(ReadableConfig config) {
        return new Following(config.get(NdjsonSourceOptions.START_AT) == NdjsonSourceOptions.StartAt.END,
                config.getOptional(NdjsonSourceOptions.IGNORE_OLDER).map(Duration::toMillis).orElse(0L),
                config.get(NdjsonSourceOptions.ROTATE_WAIT).toMillis(),
                config.get(NdjsonSourceOptions.LOOK_BACK).toMillis(),
                config.get(NdjsonSourceOptions.KEY_ORDER) == NdjsonSourceOptions.KeyOrder.TIME);
    }

    public NdjsonSource build() {
        return new NdjsonSource(discovery, splitSize, chunkSize, following);
    }

    private static long positive(MemorySize size, String what) {
        if (size.getBytes() <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + size);
        }
        return size.getBytes();
    }
}
