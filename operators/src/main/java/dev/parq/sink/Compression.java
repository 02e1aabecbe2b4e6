package dev.parq.sink;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The page compression codecs the sink offers, by the names users type. */
public enum Compression {
    SNAPPY(CompressionCodecName.SNAPPY),
    ZSTD(CompressionCodecName.ZSTD),
    GZIP(CompressionCodecName.GZIP),
    LZ4_RAW(CompressionCodecName.LZ4_RAW),
    NONE(CompressionCodecName.UNCOMPRESSED);

    public static final Compression DEFAULT = SNAPPY;

    private final CompressionCodecName codec;

    Compression(CompressionCodecName codec) {
        this.codec = codec;
    }

    public CompressionCodecName codec() {
        return codec;
    }

    /**
     * The codec named {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException listing the choices when the name is none of them
     */
    public static Compression parse(String name) {
        String wanted = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
        for (Compression c : values()) {
            if (c.name().equals(wanted)) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "unknown compression '" + name + "': choose one of " + choices());
    }

    /** The names users type, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    }

    private static String choices() {
        return String.join(", ", names());
    }
}
