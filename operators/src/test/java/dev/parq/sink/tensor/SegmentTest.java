package dev.parq.sink.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentTest {

    @TempDir
    Path dir;

    @Test
    void listsFinishedSegmentsByFileThenOffsetAndIgnoresUnfinishedOnes() throws IOException {
        for (String name : List.of(Segment.fileName(1, 0, 50), Segment.fileName(0, 100, 200),
                Segment.fileName(0, 9, 100), ".in-progress-0-0")) {
            Files.createFile(dir.resolve(name));
        }
        List<Segment> segments = Segment.listInOrder(dir);
        assertEquals(List.of(new Segment(dir.resolve(Segment.fileName(0, 9, 100)), 0, 9, 100),
                new Segment(dir.resolve(Segment.fileName(0, 100, 200)), 0, 100, 200),
                new Segment(dir.resolve(Segment.fileName(1, 0, 50)), 1, 0, 50)), segments);
    }

    @Test
    void overlappingSegmentsWouldDuplicateRows() throws IOException {
        Files.createFile(dir.resolve(Segment.fileName(2, 0, 120)));
        Files.createFile(dir.resolve(Segment.fileName(2, 100, 200)));
        IOException e = assertThrows(IOException.class, () -> Segment.listInOrder(dir));
        assertTrue(e.getMessage().contains("overlap"), e.getMessage());
    }
}
