package dev.parq.source.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class LineSnapperTest {

    private static LineSnapper over(byte[] bytes, AtomicLong bytesRead) {
        return new LineSnapper((position, into, length) -> {
            if (position >= bytes.length) {
                return -1;
            }
            int n = (int) Math.min(length, bytes.length - position);
            System.arraycopy(bytes, (int) position, into, 0, n);
            bytesRead.addAndGet(n);
            return n;
        }, bytes.length);
    }

    private static long snap(String text, long nominal) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return over(bytes, new AtomicLong()).snap(nominal);
    }

    @Test
    void boundaryInsideALineMovesToTheNextLineStart() throws IOException {
        // lines: "aaa\n" [0,4) "bbbbb\n" [4,10) "c\n" [10,12)
        assertEquals(10, snap("aaa\nbbbbb\nc\n", 5));
        assertEquals(10, snap("aaa\nbbbbb\nc\n", 9));
    }

    @Test
    void boundaryRightAfterALineEndStays() throws IOException {
        assertEquals(4, snap("aaa\nbbbbb\nc\n", 4));
        assertEquals(10, snap("aaa\nbbbbb\nc\n", 10));
    }

    @Test
    void boundaryOnTheLineEndByteMovesPastIt() throws IOException {
        assertEquals(4, snap("aaa\nbbbbb\nc\n", 3));
    }

    @Test
    void lastLineWithoutLineEndSnapsToTheFileEnd() throws IOException {
        assertEquals(13, snap("aaa\nbbbbb\nccc", 11));
    }

    @Test
    void boundariesOutsideTheFileAreClamped() throws IOException {
        assertEquals(0, snap("aaa\n", 0));
        assertEquals(4, snap("aaa\n", 4));
        assertEquals(4, snap("aaa\n", 99));
        assertEquals(0, snap("", 5));
    }

    @Test
    void aLineLongerThanTheProbeIsFollowedToItsEnd() throws IOException {
        String longLine = "x".repeat(10_000) + "\n";
        assertEquals(10_001, snap(longLine + "y\n", 3));
    }

    @Test
    void readsOnlyAProbeAtEachBoundaryNotTheFile() throws IOException {
        byte[] bytes = ("a".repeat(99) + "\n").repeat(100_000).getBytes(StandardCharsets.UTF_8); // 10 MB
        AtomicLong read = new AtomicLong();
        LineSnapper snapper = over(bytes, read);
        for (long nominal : new long[] {1_000_007, 5_000_050, 9_999_999}) {
            long boundary = snapper.snap(nominal);
            assertEquals((nominal / 100 + 1) * 100, boundary);
        }
        assertTrue(read.get() <= 3 * 4096, "read " + read.get() + " bytes");
    }
}
