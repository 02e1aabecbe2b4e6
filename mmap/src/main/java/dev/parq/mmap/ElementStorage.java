package dev.parq.mmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Little-endian bytes behind a view: one or more buffers of one power-of-two chunk size, either
 * mapped from a file or allocated on the heap. Every accessor takes a byte offset from the start
 * of the storage and finds the chunk with a shift, without allocating.
 *
 * <p>{@link #release()} drops the buffers, so that a view used after its {@link MmapArray} was
 * closed fails with an exception instead of touching unmapped memory.
 */
final class ElementStorage {

    private ByteBuffer[] chunks;
    private final int chunkShift;
    private final long chunkMask;
    private final long byteLength;

    private ElementStorage(ByteBuffer[] chunks, int chunkShift, long byteLength) {
        this.chunks = chunks;
        this.chunkShift = chunkShift;
        this.chunkMask = (1L << chunkShift) - 1;
        this.byteLength = byteLength;
    }

    static ElementStorage ofMapping(ChunkedMapping mapping) {
        ByteBuffer[] chunks = new ByteBuffer[mapping.chunkCount()];
        for (int k = 0; k < chunks.length; k++) {
            chunks[k] = mapping.chunk(k);
        }
        return new ElementStorage(chunks, mapping.chunkShift(), mapping.length());
    }

    static ElementStorage allocateHeap(long byteLength) {
        return allocateHeap(byteLength, ChunkedMapping.DEFAULT_CHUNK_SIZE);
    }

    static ElementStorage allocateHeap(long byteLength, int chunkSize) {
        long chunkCount = (byteLength + chunkSize - 1) / chunkSize;
        ByteBuffer[] chunks = new ByteBuffer[Math.toIntExact(chunkCount)];
        for (int k = 0; k < chunks.length; k++) {
            long size = Math.min(chunkSize, byteLength - (long) k * chunkSize);
            chunks[k] = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        }
        return new ElementStorage(chunks, Integer.numberOfTrailingZeros(chunkSize), byteLength);
    }

    long byteLength() {
        return byteLength;
    }

    /**
     * Makes this storage read and write {@code replacement}'s buffers, so that views taken
     * before the switch see the new bytes too. Both must use the same chunk size.
     */
    void adopt(ElementStorage replacement) {
        if (replacement.chunkShift != chunkShift || replacement.byteLength != byteLength) {
            throw new IllegalArgumentException("replacement storage has a different layout");
        }
        chunks = replacement.chunks();
    }

    void release() {
        chunks = null;
    }

    private ByteBuffer[] chunks() {
        ByteBuffer[] current = chunks;
        if (current == null) {
            throw new IllegalStateException("the array behind this view is closed");
        }
        return current;
    }

    float getFloat(long byteOffset) {
        return chunks()[(int) (byteOffset >>> chunkShift)].getFloat((int) (byteOffset & chunkMask));
    }

    double getDouble(long byteOffset) {
        return chunks()[(int) (byteOffset >>> chunkShift)].getDouble((int) (byteOffset & chunkMask));
    }

    int getInt(long byteOffset) {
        return chunks()[(int) (byteOffset >>> chunkShift)].getInt((int) (byteOffset & chunkMask));
    }

    long getLong(long byteOffset) {
        return chunks()[(int) (byteOffset >>> chunkShift)].getLong((int) (byteOffset & chunkMask));
    }

    void putFloat(long byteOffset, float value) {
        chunks()[(int) (byteOffset >>> chunkShift)].putFloat((int) (byteOffset & chunkMask), value);
    }

    void putDouble(long byteOffset, double value) {
        chunks()[(int) (byteOffset >>> chunkShift)].putDouble((int) (byteOffset & chunkMask), value);
    }

    void putInt(long byteOffset, int value) {
        chunks()[(int) (byteOffset >>> chunkShift)].putInt((int) (byteOffset & chunkMask), value);
    }

    void putLong(long byteOffset, long value) {
        chunks()[(int) (byteOffset >>> chunkShift)].putLong((int) (byteOffset & chunkMask), value);
    }

    /**
     * A little-endian buffer over the bytes from {@code byteOffset}, at most {@code maxBytes}
     * long and ending at the end of its chunk at the latest; for bulk reads and writes.
     */
    ByteBuffer piece(long byteOffset, long maxBytes) {
        ByteBuffer chunk = chunks()[(int) (byteOffset >>> chunkShift)];
        int start = (int) (byteOffset & chunkMask);
        int length = (int) Math.min(maxBytes, chunk.limit() - start);
        return chunk.slice(start, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Copies {@code length} bytes to {@code target}, piece by piece where chunks of either end. */
    void copyBytes(long sourceOffset, ElementStorage target, long targetOffset, long length) {
        ByteBuffer[] sources = chunks();
        ByteBuffer[] targets = target.chunks();
        long done = 0;
        while (done < length) {
            long from = sourceOffset + done;
            long to = targetOffset + done;
            int fromInChunk = (int) (from & chunkMask);
            int toInChunk = (int) (to & target.chunkMask);
            long piece = Math.min(length - done,
                    Math.min((chunkMask + 1) - fromInChunk, (target.chunkMask + 1) - toInChunk));
            targets[(int) (to >>> target.chunkShift)]
                    .put(toInChunk, sources[(int) (from >>> chunkShift)], fromInChunk, (int) piece);
            done += piece;
        }
    }

    /** Writes {@code length} bytes from {@code sourceOffset} to {@code channel} at {@code position}. */
    void writeTo(FileChannel channel, long position, long sourceOffset, long length)
            throws IOException {
        ByteBuffer[] sources = chunks();
        long done = 0;
        while (done < length) {
            long from = sourceOffset + done;
            int fromInChunk = (int) (from & chunkMask);
            int piece = (int) Math.min(length - done, (chunkMask + 1) - fromInChunk);
            ByteBuffer slice = sources[(int) (from >>> chunkShift)].slice(fromInChunk, piece);
            while (slice.hasRemaining()) {
                channel.write(slice, position + done + (piece - slice.remaining()));
            }
            done += piece;
        }
    }
}
