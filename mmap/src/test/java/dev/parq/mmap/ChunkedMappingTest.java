package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkedMappingTest {

    @TempDir
    Path dir;

    @Test
    void splitsARegionIntoPowerOfTwoChunks() throws Exception {
        Path file = dir.resolve("bytes");
        byte[] bytes = new byte[100];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Files.write(file, bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ChunkedMapping mapping =
                        ChunkedMapping.map(channel, FileChannel.MapMode.READ_ONLY, 4, 96, 32)) {
            assertEquals(3, mapping.chunkCount());
            assertEquals(5, mapping.chunkShift());
            assertEquals(32, mapping.chunk(2).capacity());
            assertEquals(4 + 64 + 31, mapping.chunk(2).get(31));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ChunkedMapping mapping =
                        ChunkedMapping.map(channel, FileChannel.MapMode.READ_ONLY, 0, 100, 32)) {
            assertEquals(4, mapping.chunkCount());
            assertEquals(4, mapping.chunk(3).capacity());
        }
    }

    @Test
    void refusesChunkSizesThatAreNotPowersOfTwo() throws Exception {
        Path file = dir.resolve("empty");
        Files.write(file, new byte[8]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThrows(IllegalArgumentException.class,
                    () -> ChunkedMapping.map(channel, FileChannel.MapMode.READ_ONLY, 0, 8, 24));
        }
    }

    @Test
    void useAfterCloseThrows() throws Exception {
        Path file = dir.resolve("bytes");
        Files.write(file, new byte[16]);
        ChunkedMapping mapping;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            mapping = ChunkedMapping.map(channel, FileChannel.MapMode.READ_ONLY, 0, 16, 8);
        }
        mapping.close();
        mapping.close();
        assertThrows(IllegalStateException.class, () -> mapping.chunk(0));
    }
}
