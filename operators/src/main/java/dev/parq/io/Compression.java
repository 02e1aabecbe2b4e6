package dev.parq.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.ZstdInputStream;

/**
 * How an input's bytes are stored: plain NDJSON, or a gzip or zstd stream of it. A compressed
 * input cannot be cut into splits or mapped, so it is read as one stream from its start.
 */
public enum Compression {
    NONE(null, new byte[0]),
    GZIP(".gz", new byte[] {0x1f, (byte) 0x8b}),
    ZSTD(".zst", new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd});

    /** Enough of a file's first bytes to tell its compression. */
    public static final int HEAD_BYTES = 4;

    private static final int BUFFER = 256 << 10;

    private final String suffix;
    private final byte[] magic;

    Compression(String suffix, byte[] magic) {
        this.suffix = suffix;
        this.magic = magic;
    }

    /**
     * The compression of a file named {@code location} whose first {@code length} bytes are
     * {@code head}: its magic bytes decide, so that a compressed file under a plain name is read
     * right; failing them, its name, so that a file named {@code .gz} that is not gzip is reported
     * as a corrupt gzip stream rather than parsed as garbage lines.
     */
    public static Compression of(String location, byte[] head, int length) {
        for (Compression compression : values()) {
            if (compression != NONE && startsWith(head, length, compression.magic)) {
                return compression;
            }
        }
        String name = location.toLowerCase(Locale.ROOT);
        for (Compression compression : values()) {
            if (compression != NONE && name.endsWith(compression.suffix)) {
                return compression;
            }
        }
        return NONE;
    }

    /** The compression of the file {@code reader} has open, named {@code location}. */
    public static Compression of(String location, RangeReader reader) throws IOException {
        byte[] head = new byte[HEAD_BYTES];
        int length = Math.max(0, reader.read(0, head, 0, head.length));
        return of(location, head, length);
    }

    /** Whether a file name says it is compressed, for where its bytes are not looked at. */
    public static boolean namedCompressed(String location) {
        String name = location.toLowerCase(Locale.ROOT);
        return name.endsWith(GZIP.suffix) || name.endsWith(ZSTD.suffix);
    }

    public boolean compressed() {
        return this != NONE;
    }

    /** {@code raw} decompressed; a gzip file of several members is read as their concatenation. */
    public InputStream decompress(InputStream raw) throws IOException {
        return switch (this) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw, BUFFER);
            case ZSTD -> new BufferedInputStream(new ZstdInputStream(new BufferedInputStream(raw, BUFFER)), BUFFER);
        };
    }

    /** The name a user knows the format by, for messages. */
    public String formatName() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static boolean startsWith(byte[] head, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (head[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
