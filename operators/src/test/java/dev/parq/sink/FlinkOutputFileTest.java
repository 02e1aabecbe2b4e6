package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Parquet side of a Flink output stream: buffered, with the position counted, bytes unchanged. */
class FlinkOutputFileTest {

    @TempDir
    Path dir;

    /** Flink's local stream, counting the writes that reach it. */
    private static final class CountingStream extends FSDataOutputStream {
        private final LocalDataOutputStream file;
        int writes;

        CountingStream(Path path) throws IOException {
            this.file = new LocalDataOutputStream(path.toFile());
        }

        @Override
        public long getPos() throws IOException {
            return file.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            writes++;
            file.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes++;
            file.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            file.flush();
        }

        @Override
        public void sync() throws IOException {
            file.sync();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    @Test
    void bytesAndPositionsAreThoseWrittenWhateverTheWriteSizes() throws Exception {
        Path path = dir.resolve("part.parquet");
        CountingStream flink = new CountingStream(path);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        SplittableRandom random = new SplittableRandom(11);
        try (PositionOutputStream out = new FlinkOutputFile(flink).create(0)) {
            for (int i = 0; i < 5_000; i++) {
                assertEquals(expected.size(), out.getPos());
                int kind = random.nextInt(10);
                if (kind < 6) {
                    int b = random.nextInt(256);
                    out.write(b);
                    expected.write(b);
                } else {
                    int length = kind < 9 ? random.nextInt(1, 2_000) : random.nextInt(1, 3 * FlinkOutputFile.BUFFER_BYTES);
                    byte[] bytes = new byte[length + 10];
                    random.nextBytes(bytes);
                    out.write(bytes, 5, length);
                    expected.write(bytes, 5, length);
                }
            }
            assertEquals(expected.size(), out.getPos());
        }
        assertEquals(expected.size(), flink.getPos(), "close flushes everything to Flink's stream");
        flink.close();
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(path));
    }

    @Test
    void smallWritesReachFlinksStreamInBufferSizedPieces() throws Exception {
        CountingStream flink = new CountingStream(dir.resolve("footer.parquet"));
        try (PositionOutputStream out = new FlinkOutputFile(flink).create(0)) {
            for (int i = 0; i < 100_000; i++) {
                out.write(i);
            }
            assertEquals(100_000, out.getPos());
        }
        flink.close();
        assertTrue(flink.writes <= 100_000 / FlinkOutputFile.BUFFER_BYTES + 1,
                flink.writes + " writes reached Flink's stream");
    }
}
