package dev.parq.mmap;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A file region of any length mapped as consecutive chunks of one power-of-two size, because
 * Java 17 maps at most {@link Mappings#MAX_REGION} bytes per buffer.
 *
 * <p>Chunk {@code k} covers bytes {@code [k * chunkSize, (k + 1) * chunkSize)} of the region, so
 * a byte offset finds its chunk by {@code offset >>> chunkShift()}. A region of fixed-size
 * elements whose size divides the chunk size never has an element straddling two chunks.
 */
public final class ChunkedMapping implements AutoCloseable {

    /** 1 GiB: large enough that few buffers exist, a power of two so lookups are shifts. */
    public static final int DEFAULT_CHUNK_SIZE = 1 << 30;

    private final MappedByteBuffer[] chunks;
    private final int chunkShift;
    private final long length;
    private boolean closed;

    private ChunkedMapping(MappedByteBuffer[] chunks, int chunkShift, long length) {
        this.chunks = chunks;
        this.chunkShift = chunkShift;
        this.length = length;
    }

    /**
     * Maps {@code length} bytes of {@code channel} from {@code position} in {@code mode},
     * little-endian, in chunks of {@code chunkSize} bytes (the last may be shorter).
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not a positive power of two
     */
    public static ChunkedMapping map(
            FileChannel channel, FileChannel.MapMode mode, long position, long length, int chunkSize)
            throws IOException {
        if (chunkSize <= 0 || Integer.bitCount(chunkSize) != 1) {
            throw new IllegalArgumentException(
                    "chunk size must be a positive power of two, got " + chunkSize);
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        long chunkCount = (length + chunkSize - 1) / chunkSize;
        if (chunkCount > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    length + " bytes need more than " + Integer.MAX_VALUE + " chunks of " + chunkSize);
        }
        MappedByteBuffer[] chunks = new MappedByteBuffer[(int) chunkCount];
        try {
            for (int k = 0; k < chunks.length; k++) {
                long start = (long) k * chunkSize;
                long size = Math.min(chunkSize, length - start);
                chunks[k] = Mappings.map(channel, mode, position + start, size);
            }
        } catch (IOException | RuntimeException e) {
            for (MappedByteBuffer chunk : chunks) {
                Mappings.unmap(chunk);
            }
            throw e;
        }
        return new ChunkedMapping(chunks, Integer.numberOfTrailingZeros(chunkSize), length);
    }

    public int chunkCount() {
        return chunks.length;
    }

    /** The chunk covering region bytes from {@code index << chunkShift()}; little-endian. */
    public MappedByteBuffer chunk(int index) {
        checkOpen();
        return chunks[index];
    }

    public int chunkShift() {
        return chunkShift;
    }

    public long length() {
        return length;
    }

    /** Writes changes of a read-write mapping to the storage device. */
    public void force() {
        checkOpen();
        for (MappedByteBuffer chunk : chunks) {
            chunk.force();
        }
    }

    /** Unmaps every chunk; idempotent. No buffer obtained from {@link #chunk} may be used afterwards. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (MappedByteBuffer chunk : chunks) {
            Mappings.unmap(chunk);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("mapping of " + length + " bytes is closed");
        }
    }
}
