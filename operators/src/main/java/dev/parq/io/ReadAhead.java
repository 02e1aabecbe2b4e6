package dev.parq.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A stream read ahead by a thread of its own, a few blocks at most: a decompressor then inflates
 * the next blocks while the task parses this one, on two cores instead of one. The thread owns the
 * stream it reads and closes it when it ends, so that a decompressor is never closed while it is
 * inflating; a failure reaches the reader after the bytes read before it, as it would unthreaded.
 */
final class ReadAhead extends InputStream {

    private static final int BLOCKS = 3;

    /** A block of bytes read, the end of the stream (no bytes, no failure), or a failure. */
    private record Block(byte[] bytes, int length, IOException failure) {}

    private final BlockingQueue<byte[]> free;
    private final BlockingQueue<Block> ready;
    private final Thread reader;
    private Block current;
    private int position;
    private boolean ended;
    private volatile boolean closed;

    private ReadAhead(InputStream in, int blockSize, int blocks, String name) {
        free = new ArrayBlockingQueue<>(blocks);
        ready = new ArrayBlockingQueue<>(blocks + 1);
        for (int i = 0; i < blocks; i++) {
            free.add(new byte[blockSize]);
        }
        reader = new Thread(() -> readAll(in), "parq read-ahead " + name);
        reader.setDaemon(true);
    }

    /** {@code in} read ahead in blocks of {@code blockSize} bytes by a new thread named after {@code name}. */
    static InputStream of(InputStream in, int blockSize, String name) {
        return of(in, blockSize, BLOCKS, name);
    }

    /** {@code in} read ahead by up to {@code blocks} blocks of {@code blockSize} bytes. */
    static ReadAhead of(InputStream in, int blockSize, int blocks, String name) {
        ReadAhead ahead = new ReadAhead(in, blockSize, blocks, name);
        ahead.reader.start();
        return ahead;
    }

    private void readAll(InputStream in) {
        try (in) {
            while (!closed) {
                byte[] bytes = free.take();
                int length = 0;
                IOException failure = null;
                try {
                    for (int n; length < bytes.length && (n = in.read(bytes, length, bytes.length - length)) >= 0; ) {
                        length += n;
                    }
                } catch (IOException e) {
                    failure = e;
                }
                if (length > 0) {
                    ready.put(new Block(bytes, length, null));
                }
                if (failure != null || length < bytes.length) {
                    ready.put(new Block(null, 0, failure));
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed while waiting for a free block or for room: the reader is gone
        } catch (IOException e) {
            // closing the stream failed: nothing is read from it any more
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!bytesLeft()) {
            return -1;
        }
        int n = Math.min(length, current.length() - position);
        System.arraycopy(current.bytes(), position, into, offset, n);
        position += n;
        return n;
    }

    /** Reads up to {@code into}'s remaining bytes into it; returns how many, or -1 at the end. */
    int read(ByteBuffer into) throws IOException {
        if (!into.hasRemaining()) {
            return 0;
        }
        if (!bytesLeft()) {
            return -1;
        }
        int n = Math.min(into.remaining(), current.length() - position);
        into.put(current.bytes(), position, n);
        position += n;
        return n;
    }

    /** Whether the current block has bytes left, after taking the next if it has none; false at the end. */
    private boolean bytesLeft() throws IOException {
        return current != null && position < current.length() || nextBlock();
    }

    private boolean nextBlock() throws IOException {
        if (ended) {
            return false;
        }
        if (current != null) {
            free.add(current.bytes());
            current = null;
        }
        Block next;
        try {
            next = ready.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the input");
        }
        if (next.bytes() == null) {
            ended = true;
            if (next.failure() != null) {
                throw new IOException(next.failure().getMessage(), next.failure());
            }
            return false;
        }
        current = next;
        position = 0;
        return true;
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
    }
}
