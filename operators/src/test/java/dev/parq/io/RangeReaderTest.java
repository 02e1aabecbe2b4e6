package dev.parq.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both ways of reading input give the same bytes; which one a location gets follows its scheme. */
class RangeReaderTest {

    @TempDir
    Path dir;

    @Test
    void mappedAndStreamedReadersReadTheSameBytes() throws IOException {
        byte[] content = new byte[300_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + i / 7);
        }
        Path file = Files.write(dir.resolve("in.ndjson"), content);
        try (RangeReader mapped = RangeReader.open(file.toString());
                RangeReader streamed = new StreamRangeReader(
                        new org.apache.flink.core.fs.Path(file.toUri()), FileSystem.getLocalFileSystem())) {
            for (RangeReader reader : List.of(mapped, streamed)) {
                assertEquals(content.length, reader.size());
                for (long[] range : new long[][] {{0, 10}, {65_530, 70_000}, {299_990, 10}, {0, 300_000}}) {
                    ByteBuffer window = reader.window(range[0], (int) range[1]);
                    byte[] seen = new byte[(int) range[1]];
                    window.get(0, seen);
                    assertArrayEquals(Arrays.copyOfRange(content, (int) range[0], (int) (range[0] + range[1])), seen,
                            reader.getClass().getSimpleName() + " window at " + range[0]);
                    reader.releaseWindow();
                }
                byte[] tail = new byte[100];
                assertEquals(20, reader.read(content.length - 20, tail, 5, 20));
                assertEquals(content[content.length - 1], tail[24]);
                assertEquals(-1, reader.read(content.length, tail, 0, 10));
            }
            assertFalse(mapped.fileKey().isEmpty(), "a local file has an identity");
            assertEquals(Files.getLastModifiedTime(file).toMillis(), mapped.lastModified());
            assertEquals(mapped.lastModified() / 1000, streamed.lastModified() / 1000);
            // Where the file system has no ETag, the version is the length and modification time.
            assertEquals("len:" + content.length + "@" + streamed.lastModified(), streamed.fileKey());
            assertThrows(IOException.class, () -> streamed.window(content.length - 5, 10));
        }
    }

    @Test
    void windowsReadInOrderAreReadAheadAndGiveTheFilesBytes() throws Exception {
        byte[] content = new byte[3_000_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + i / 7);
        }
        Path file = Files.write(dir.resolve("in.ndjson"), content);
        AtomicLong readAhead = new AtomicLong();
        FileSystem counting = new LocalFileSystem() {
            @Override
            public FSDataInputStream open(org.apache.flink.core.fs.Path path) throws IOException {
                FSDataInputStream in = super.open(path);
                return new FSDataInputStream() {
                    @Override
                    public void seek(long desired) throws IOException {
                        in.seek(desired);
                    }

                    @Override
                    public long getPos() throws IOException {
                        return in.getPos();
                    }

                    @Override
                    public int read() throws IOException {
                        return in.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = in.read(b, off, len);
                        if (n > 0 && Thread.currentThread().getName().startsWith("parq read-ahead")) {
                            readAhead.addAndGet(n);
                        }
                        return n;
                    }

                    @Override
                    public void close() throws IOException {
                        in.close();
                    }
                };
            }
        };
        try (RangeReader streamed = new StreamRangeReader(new org.apache.flink.core.fs.Path(file.toUri()), counting)) {
            long from = 1000;
            long to = 2_900_000;
            streamed.readInOrder(from, to, 400_000);
            // Each window from a point inside the last (its last line feed), or at its end; a long
            // line's window twice as large from the same point; then a shorter one again; one
            // outside the range; and the range again.
            long[][] windows = {{1000, 400_000}, {380_000, 400_000}, {780_000, 400_000}, {780_000, 800_000},
                {1_500_000, 400_000}, {1_600_000, 400_000}, {10, 100}, {2_000_000, 400_000},
                {2_399_999, 400_000}, {2_799_999, 100_001}};
            for (long[] w : windows) {
                ByteBuffer window = streamed.window(w[0], (int) w[1]);
                assertEquals(w[1], window.remaining());
                byte[] seen = new byte[(int) w[1]];
                window.get(0, seen);
                assertArrayEquals(Arrays.copyOfRange(content, (int) w[0], (int) (w[0] + w[1])), seen,
                        "window at " + w[0]);
                if (w[0] == 1000) {
                    // While the caller holds the first window, the next bytes are read by another thread.
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (readAhead.get() <= 400_000 && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertTrue(readAhead.get() > 400_000, "read ahead: " + readAhead.get());
                }
            }
            assertTrue(readAhead.get() <= to - from + windows.length * (1L << 20),
                    "nothing past the range is read ahead: " + readAhead.get());
        }
    }

    @Test
    void localPathsAreMappedAndOtherSchemesStreamed() {
        for (String local : List.of("/var/log/app.log", "logs/app.log", "app.log", "file:///var/log/app.log",
                "FILE:/tmp/x", "C:\\logs\\app.log", "weird:name")) {
            assertEquals(!local.equals("weird:name"), Locations.isLocal(local), local);
        }
        for (String remote : List.of("s3://bucket/key.ndjson", "s3a://bucket/logs/", "hdfs://nn:8020/logs",
                "gs://b/o")) {
            assertFalse(Locations.isLocal(remote), remote);
        }
        assertTrue(Locations.localPath("file:///tmp/a%20b").toString().endsWith("a b"));
    }
}
