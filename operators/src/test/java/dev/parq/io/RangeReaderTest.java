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

import org.apache.flink.core.fs.FileSystem;
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
