package dev.parq.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A stream's chunks dealt among shares, by a reader of the stream in this process
 * ({@link SharedLines}) and by a reader each of the whole stream ({@link LineStream#share}): each
 * share gets chunks {@code share, share + n, ...} in order, at their offsets, and together they
 * are the stream, every line once.
 */
class SharedLinesTest {

    private static final byte[] LINES = lines(5_000);
    private static final int CHUNK = 1_000;

    @Test
    void sharesReadTogetherGetEveryNthChunkAndTogetherTheStream() throws Exception {
        for (int shares : new int[] {1, 2, 3}) {
            SharedLines shared = new SharedLines(open(LINES, Compression.NONE), shares);
            List<TreeMap<Long, String>> taken = readConcurrently(shares, shared::share);
            assertDealt(taken, shares);
        }
    }

    @Test
    void eachReaderOfTheWholeStreamTakesItsShare() throws Exception {
        int shares = 3;
        byte[] gz = LineStreamTest.compress(Compression.GZIP, LINES);
        List<TreeMap<Long, String>> taken = new ArrayList<>();
        for (int share = 0; share < shares; share++) {
            try (Lines lines = open(gz, Compression.GZIP).share(share, shares)) {
                taken.add(drain(lines));
            }
        }
        assertDealt(taken, shares);
    }

    /**
     * Shares of a stream by name: the first reader opens it, the others deal from it; once dealt
     * to its end the name is not dealt again.
     */
    @Test
    void sharesByNameOpenTheStreamOnceTillAllAreClosed() throws Exception {
        int[] opened = {0};
        SharedLines.Opener opener = () -> {
            opened[0]++;
            return open(LINES, Compression.NONE);
        };
        List<TreeMap<Long, String>> taken = readConcurrently(2, share -> {
            try {
                return SharedLines.share("a stream", share, 2, opener);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertDealt(taken, 2);
        assertEquals(1, opened[0]);
        assertNull(SharedLines.share("a stream", 0, 2, opener), "a stream dealt to its end is not dealt again");
        assertEquals(1, opened[0]);
    }

    /**
     * A share closed before its last chunk breaks the dealing: the other share fails instead of
     * waiting on its full queue, and the name is not dealt again (null: read the stream yourself).
     */
    @Test
    void aShareClosedBeforeItsEndFailsTheOthersAndRetiresTheName() throws Exception {
        SharedLines.Opener opener = () -> open(LINES, Compression.NONE);
        Lines first = SharedLines.share("broken", 0, 2, opener);
        Lines second = SharedLines.share("broken", 1, 2, opener);
        first.next();
        first.close();
        IOException failure = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> drain(second));
        assertTrue(failure.getMessage().contains("another reader of input failed"), failure.getMessage());
        second.close();
        assertNull(SharedLines.share("broken", 0, 2, opener));
    }

    /** A damaged stream fails every share that reads on, not only the one that read the damage. */
    @Test
    void aCorruptStreamFailsEveryShare() throws Exception {
        byte[] gz = LineStreamTest.compress(Compression.GZIP, LINES);
        byte[] cut = Arrays.copyOf(gz, gz.length / 2);
        SharedLines shared = new SharedLines(open(cut, Compression.GZIP), 2);
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int share = 0; share < 2; share++) {
                Lines lines = shared.share(share);
                results.add(readers.submit(() -> drain(lines)));
            }
            for (Future<?> result : results) {
                Exception failure = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                        () -> result.get(30, TimeUnit.SECONDS));
                assertInstanceOf(CorruptInputException.class, failure.getCause());
            }
        } finally {
            readers.shutdownNow();
        }
    }

    private static List<TreeMap<Long, String>> readConcurrently(int shares, java.util.function.IntFunction<Lines> share)
            throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(shares);
        try {
            List<Future<TreeMap<Long, String>>> results = new ArrayList<>();
            for (int s = 0; s < shares; s++) {
                Lines lines = share.apply(s);
                results.add(readers.submit(() -> {
                    try (lines) {
                        return drain(lines);
                    }
                }));
            }
            List<TreeMap<Long, String>> taken = new ArrayList<>();
            for (Future<TreeMap<Long, String>> result : results) {
                taken.add(result.get(30, TimeUnit.SECONDS));
            }
            return taken;
        } finally {
            readers.shutdownNow();
        }
    }

    /** Chunk text by offset, slowly enough that the other shares' queues fill and wait. */
    private static TreeMap<Long, String> drain(Lines lines) throws IOException {
        TreeMap<Long, String> chunks = new TreeMap<>();
        for (ByteBuffer chunk; (chunk = lines.next()) != null; ) {
            chunks.put(lines.chunkOffset(), StandardCharsets.UTF_8.decode(chunk).toString());
            Thread.onSpinWait();
        }
        assertNull(lines.next());
        return chunks;
    }

    /** Share k holds chunks k, k + n, ... of the stream's chunks, which together are the stream. */
    private static void assertDealt(List<TreeMap<Long, String>> taken, int shares) {
        TreeMap<Long, String> all = new TreeMap<>();
        taken.forEach(all::putAll);
        assertEquals(taken.stream().mapToInt(TreeMap::size).sum(), all.size(), "a chunk in two shares");
        assertEquals(new String(LINES, StandardCharsets.UTF_8), String.join("", all.values()));
        List<Long> offsets = new ArrayList<>(all.keySet());
        assertTrue(offsets.size() > 2 * shares, offsets.size() + " chunks");
        for (int share = 0; share < shares; share++) {
            List<Long> expected = new ArrayList<>();
            for (int i = share; i < offsets.size(); i += shares) {
                expected.add(offsets.get(i));
            }
            assertEquals(expected, new ArrayList<>(taken.get(share).keySet()), "share " + share + " of " + shares);
        }
    }

    private static LineStream open(byte[] stored, Compression compression) throws IOException {
        return LineStream.open(compression == Compression.GZIP ? "input.gz" : "input", new ByteArrayInputStream(stored),
                compression, CHUNK, 1 << 20);
    }

    private static byte[] lines(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("{\"n\":").append(i).append(",\"s\":\"").append("x".repeat(i % 37)).append("\"}\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
