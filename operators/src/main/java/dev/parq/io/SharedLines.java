package dev.parq.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One stream's chunks of lines dealt to several readers in this process, chunk {@code i} to share
 * {@code i % shares}: for a stream that can be read only once, standard input, and for one that
 * would otherwise be decompressed once per reader. Whichever reader
 * needs a chunk reads the stream, keeping the chunks of the other shares for their readers, at most
 * {@link #QUEUED} each: a reader whose next chunk belongs to a share with a full queue waits for its
 * reader, so that a slow reader holds the stream back instead of filling the heap.
 *
 * <p>Every share must be read at the same time, each by a reader of its own: a reader that took
 * two shares one after the other would wait on the second's full queue for ever. A share closed
 * before its last chunk (its reader failed) breaks the dealing: the other shares fail
 * instead of waiting for it, and a named stream is not dealt again, so that a reader run again
 * reads the stream itself from its start rather than continue another attempt's dealing.
 */
public final class SharedLines {

    /** Chunks kept per share; with 4 MiB chunks, 8 MiB of heap per waiting share. */
    static final int QUEUED = 2;

    private record Chunk(long offset, ByteBuffer bytes) {}

    /** Opens the stream, for the first of its readers. */
    public interface Opener {
        LineStream open() throws IOException;
    }

    /** The streams being dealt in this process by name; null once dealt or broken. */
    private static final Map<String, SharedLines> DEALT = new HashMap<>();

    private final String name;
    private final LineStream lines;
    private final int shares;
    private final ArrayDeque<Chunk>[] queues;
    /** Buffers of chunks handed on and given back, for the next chunks: no 4 MiB array per chunk. */
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    private long dealt;
    private boolean ended;
    private IOException failure;
    private boolean broken;
    private int closed;

    /** Dealing without a name, for a caller that hands the shares to its readers itself. */
    SharedLines(LineStream lines, int shares) {
        this(null, lines, shares);
    }

    @SuppressWarnings("unchecked")
    private SharedLines(String name, LineStream lines, int shares) {
        this.name = name;
        if (shares < 1) {
            throw new IllegalArgumentException("shares must be positive, got " + shares);
        }
        this.lines = lines;
        this.shares = shares;
        this.queues = new ArrayDeque[shares];
        for (int i = 0; i < shares; i++) {
            queues[i] = new ArrayDeque<>(QUEUED);
        }
    }

    /**
     * Share {@code share} of the stream named {@code name}, which the first of its readers in this
     * process opens; null if that stream has been dealt to its end, or broken, already: the
     * caller then reads the stream itself.
     */
    public static Lines share(String name, int share, int shares, Opener opener) throws IOException {
        SharedLines shared;
        synchronized (DEALT) {
            if (DEALT.containsKey(name)) {
                shared = DEALT.get(name);
                if (shared == null) {
                    return null;
                }
            } else {
                shared = new SharedLines(name, opener.open(), shares);
                DEALT.put(name, shared);
            }
        }
        return shared.share(share);
    }

    /** The chunks of share {@code share}; closing all the shares closes the stream. */
    public Lines share(int share) {
        if (share < 0 || share >= shares) {
            throw new IllegalArgumentException("share " + share + " of " + shares);
        }
        return new Lines() {
            private long offset;
            private ByteBuffer last;

            private boolean finished;

            @Override
            public ByteBuffer next() throws IOException {
                // The chunk handed on last is done with: its buffer serves a later chunk.
                Chunk chunk = take(share, last);
                last = chunk == null ? null : chunk.bytes();
                if (chunk == null) {
                    finished = true;
                    return null;
                }
                offset = chunk.offset();
                return chunk.bytes();
            }

            @Override
            public long chunkOffset() {
                return offset;
            }

            @Override
            public Compression compression() {
                return lines.compression();
            }

            @Override
            public void close() throws IOException {
                release(finished);
            }
        };
    }

    private synchronized Chunk take(int share, ByteBuffer done) throws IOException {
        if (done != null) {
            free.add(done.array());
        }
        while (true) {
            Chunk queued = queues[share].poll();
            if (queued != null) {
                notifyAll();
                return queued;
            }
            if (failure != null) {
                throw failure;
            }
            if (broken) {
                throw new IOException("another reader of " + lines.location() + " failed before its end: the chunks"
                        + " dealt to it are lost with it");
            }
            if (ended) {
                return null;
            }
            int owner = (int) (dealt % shares);
            if (owner != share && queues[owner].size() >= QUEUED) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for another reader of the input");
                }
                continue;
            }
            ByteBuffer bytes;
            try {
                bytes = lines.next();
            } catch (IOException e) {
                failure = e;
                notifyAll();
                throw e;
            }
            if (bytes == null) {
                ended = true;
                notifyAll();
                continue;
            }
            // The stream reuses its buffer for the next chunk: a chunk kept for later is a copy.
            queues[owner].add(new Chunk(lines.chunkOffset(), copy(bytes)));
            dealt++;
            if (owner != share) {
                notifyAll();
            }
        }
    }

    private ByteBuffer copy(ByteBuffer bytes) {
        int length = bytes.remaining();
        byte[] buffer = free.poll();
        while (buffer != null && buffer.length < length) {
            buffer = free.poll();
        }
        if (buffer == null) {
            buffer = new byte[length];
        }
        bytes.get(buffer, 0, length);
        return ByteBuffer.wrap(buffer, 0, length);
    }

    /** A share is closed: one {@code finished} read its last chunk, any other broke off. */
    private synchronized void release(boolean finished) throws IOException {
        closed++;
        if (!finished) {
            broken = true;
            notifyAll();
        }
        if ((broken || closed == shares) && name != null) {
            synchronized (DEALT) {
                DEALT.put(name, null);
            }
        }
        if (closed == shares) {
            lines.close();
        }
    }
}
