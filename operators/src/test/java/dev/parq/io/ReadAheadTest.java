package dev.parq.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class ReadAheadTest {

    @Test
    void givesTheBytesInOrderWhateverTheReadSizes() throws IOException {
        Random random = new Random(5);
        for (int size : new int[] {0, 1, 4095, 4096, 4097, 100_000}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            try (InputStream ahead = ReadAhead.of(new ByteArrayInputStream(data), 4096, "test")) {
                byte[] into = new byte[10_000];
                for (int n; (n = ahead.read(into, 0, 1 + random.nextInt(into.length))) >= 0; ) {
                    read.write(into, 0, n);
                }
                assertEquals(-1, ahead.read());
            }
            assertArrayEquals(data, read.toByteArray(), "size " + size);
        }
    }

    /** A stream that fails after some bytes: those bytes first, then the failure, with its message. */
    @Test
    void aFailureComesAfterTheBytesBeforeIt() throws IOException {
        InputStream failing = new InputStream() {
            private int left = 10_000;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] into, int offset, int length) throws IOException {
                if (left == 0) {
                    throw new IOException("Unexpected end of ZLIB input stream");
                }
                int n = Math.min(length, left);
                java.util.Arrays.fill(into, offset, offset + n, (byte) 'x');
                left -= n;
                return n;
            }
        };
        try (InputStream ahead = ReadAhead.of(failing, 4096, "test")) {
            byte[] into = new byte[3000];
            long read = 0;
            IOException failure = null;
            try {
                for (int n; (n = ahead.read(into, 0, into.length)) >= 0; ) {
                    read += n;
                }
            } catch (IOException e) {
                failure = e;
            }
            assertEquals(10_000, read);
            assertTrue(failure != null && failure.getMessage().equals("Unexpected end of ZLIB input stream"));
        }
    }

    /** Closed early, the thread stops and closes the stream it read, which no one else may close under it. */
    @Test
    void closedEarlyTheThreadEndsAndClosesItsStream() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean readAfterClose = new AtomicBoolean();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                if (closed.getCount() == 0) {
                    readAfterClose.set(true);
                }
                return 'y';
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
        InputStream ahead = ReadAhead.of(endless, 4096, "test");
        assertEquals('y', ahead.read());
        ahead.close();
        assertTrue(closed.await(10, TimeUnit.SECONDS), "the read-ahead thread did not close its stream");
        assertTrue(!readAfterClose.get());
    }
}
