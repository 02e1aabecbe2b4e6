package dev.parq.source.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.io.RangeReader;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.InputFiles;
import dev.parq.source.enumerate.InputNotFoundException;
import dev.parq.source.split.FileSplit;

class SplitPlannerTest {

    @TempDir
    Path dir;

    private InputFile write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        return InputFile.of(file);
    }

    private static void assertCoversWholeLines(InputFile file, List<FileSplit> splits) throws IOException {
        byte[] bytes = Files.readAllBytes(Path.of(file.path()));
        long expectedStart = 0;
        for (FileSplit split : splits) {
            assertEquals(expectedStart, split.start());
            assertTrue(split.end() > split.start(), "empty split " + split);
            assertTrue(split.end() == bytes.length || bytes[(int) split.end() - 1] == '\n', "split " + split);
            expectedStart = split.end();
        }
        assertEquals(bytes.length, expectedStart);
    }

    private InputFile gzipped(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return InputFile.of(file);
    }

    /**
     * With fewer compressed files than readers and no plain file, each compressed file is dealt
     * into shares, one split each, at most three; standard input alone into up to four; otherwise
     * every input keeps its one split.
     */
    @Test
    void compressedFilesAreSharedByTheReadersTheyCannotKeepBusy() throws IOException {
        SplitPlanner planner = new SplitPlanner(1 << 20);
        InputFile gz = gzipped("a.ndjson.gz", "{\"a\":1}\n{\"a\":2}\n");
        InputFile other = gzipped("b.ndjson.gz", "{\"a\":3}\n");
        InputFile plain = write("c.ndjson", "{\"a\":4}\n");

        List<FileSplit> two = planner.plan(List.of(gz), 2);
        assertEquals(2, two.size(), two.toString());
        for (int share = 0; share < 2; share++) {
            FileSplit split = two.get(share);
            assertEquals(2, split.shares());
            assertEquals(share, split.share());
            assertEquals(0, split.start());
            assertEquals(gz.length(), split.end());
        }
        assertEquals(2, two.stream().map(FileSplit::splitId).distinct().count());
        assertEquals(1, two.stream().map(FileSplit::streamName).distinct().count());
        assertTrue(!planner.plan(List.of(gz), 2).get(0).streamName().equals(two.get(0).streamName()),
                "the shares of another plan deal another stream");

        assertEquals(List.of(3, 3, 3), planner.plan(List.of(gz), 8).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(2, 2, 2, 2), planner.plan(List.of(gz, other), 4).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(1, 1), planner.plan(List.of(gz, other), 2).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(1, 1), planner.plan(List.of(gz, plain), 4).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(1), planner.plan(List.of(gz), 1).stream().map(FileSplit::shares).toList());

        InputFile stdin = new InputFile("-", 0, "");
        assertEquals(List.of(4, 4, 4, 4), planner.plan(List.of(stdin), 8).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(0, 1), planner.plan(List.of(stdin), 2).stream().map(FileSplit::share).toList());
        assertEquals(List.of(1), planner.plan(List.of(stdin), 1).stream().map(FileSplit::shares).toList());
        assertEquals(List.of(1, 1), planner.plan(List.of(stdin, plain), 4).stream().map(FileSplit::shares).toList());
    }

    @Test
    void cutsAtLineStartsAfterEachWindow() throws IOException {
        InputFile file = write("a.json", "{\"a\":1}\n".repeat(100)); // 8 bytes a line
        List<FileSplit> splits = new SplitPlanner(100).plan(file);
        assertCoversWholeLines(file, splits);
        assertEquals(104, splits.get(0).end());
        assertEquals(8, splits.size());
    }

    @Test
    void theLastSplitsOfTheInputAreQuarteredForSeveralReaders() throws IOException {
        InputFile file = write("t.json", "1234567\n".repeat(200)); // 1600 bytes, boundaries on line ends
        List<FileSplit> splits = new SplitPlanner(160).plan(List.of(file), 2);
        assertCoversWholeLines(file, splits);
        // Up to 1600 - 2 * 160 = 1280 every 160 bytes, then every 40.
        List<Long> sizes = splits.stream().map(split -> split.end() - split.start()).toList();
        assertEquals(8 + 8, sizes.size(), sizes.toString());
        assertTrue(sizes.subList(0, 8).stream().allMatch(size -> size == 160), sizes.toString());
        assertTrue(sizes.subList(8, 16).stream().allMatch(size -> size == 40), sizes.toString());
        assertEquals(10, new SplitPlanner(160).plan(List.of(file), 1).size(), "one reader: no tail to balance");
    }

    @Test
    void theQuarteredTailMaySpanFiles() throws IOException {
        InputFile first = write("t1.json", "1234567\n".repeat(100)); // 800 bytes
        InputFile second = write("t2.json", "1234567\n".repeat(20)); // 160 bytes
        List<FileSplit> splits = new SplitPlanner(160).plan(List.of(first, second), 3);
        // The tail starts at 960 - 3 * 160 = 480: 160-byte splits before it, 40-byte ones after.
        List<FileSplit> ofFirst = splits.stream().filter(split -> split.path().equals(first.path())).toList();
        List<FileSplit> ofSecond = splits.stream().filter(split -> split.path().equals(second.path())).toList();
        assertCoversWholeLines(first, ofFirst);
        assertCoversWholeLines(second, ofSecond);
        assertEquals(List.of(0L, 160L, 320L, 480L, 520L, 560L), ofFirst.stream().map(FileSplit::start).toList().subList(0, 6));
        assertEquals(3 + 8, ofFirst.size());
        assertEquals(4, ofSecond.size());
    }

    /**
     * Where each read is a request that waits for an answer (an object store's), the boundaries of
     * a file are snapped by several readers at once, and the splits are those that one reader
     * snapping them in turn makes: a line longer than several splits included.
     */
    @Test
    void aFileWhoseReadsAreRequestsIsCutBySeveralReadersAtOnce() throws IOException {
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            content.append("{\"n\":").append(i).append(",\"s\":\"").append("x".repeat(i % 37)).append("\"}\n");
            if (i == 150) {
                content.append("{\"long\":\"").append("y".repeat(900)).append("\"}\n");
            }
        }
        InputFile file = write("r.json", content.toString());
        List<FileSplit> byOneReader = new SplitPlanner(200).plan(List.of(file), 2);
        assertCoversWholeLines(file, byOneReader);

        AtomicInteger reading = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        SplitPlanner requesting = new SplitPlanner(200,
                path -> new RequestingReader(RangeReader.open(path), reading, mostAtOnce));
        assertEquals(byOneReader, requesting.plan(List.of(file), 2));
        assertTrue(mostAtOnce.get() > 1, "at most " + mostAtOnce.get() + " read at once");

        // Its 60-odd boundaries take every reader; the planner's own, open already, is one of them.
        AtomicInteger opened = new AtomicInteger();
        SplitPlanner counting = new SplitPlanner(200, path -> {
            opened.incrementAndGet();
            return new RequestingReader(RangeReader.open(path), reading, mostAtOnce);
        });
        assertEquals(new SplitPlanner(200).plan(file), counting.plan(file));
        assertEquals(SplitPlanner.CONCURRENT_SNAPS, opened.get(), "readers opened");
    }

    /** A file of one split, compressed or not, is its split from byte 0 to its end without a read of it. */
    @Test
    void aFileOfOneSplitIsNotRead() throws IOException {
        InputFile plain = write("one.json", "{\"a\":1}\n{\"a\":2}\n");
        InputFile gz = gzipped("one.json.gz", "{\"a\":1}\n");
        AtomicInteger opened = new AtomicInteger();
        SplitPlanner counting = new SplitPlanner(1 << 20, path -> {
            opened.incrementAndGet();
            return RangeReader.open(path);
        });
        for (InputFile file : List.of(plain, gz)) {
            List<FileSplit> splits = counting.plan(file);
            assertEquals(1, splits.size());
            assertEquals(0, splits.get(0).start());
            assertEquals(file.length(), splits.get(0).end());
        }
        assertEquals(0, opened.get(), "readers opened");
        assertEquals(2, counting.plan(write("two.json", "{\"a\":1}\n".repeat(200_000))).size());
        assertEquals(1, opened.get(), "readers opened");
    }

    /** A local file's reader whose reads take as long as a request's answer, counting those under way. */
    private static final class RequestingReader implements RangeReader {
        private final RangeReader file;
        private final AtomicInteger reading;
        private final AtomicInteger mostAtOnce;

        RequestingReader(RangeReader file, AtomicInteger reading, AtomicInteger mostAtOnce) {
            this.file = file;
            this.reading = reading;
            this.mostAtOnce = mostAtOnce;
        }

        @Override
        public boolean readsAreRequests() {
            return true;
        }

        @Override
        public int read(long position, byte[] into, int offset, int length) throws IOException {
            mostAtOnce.accumulateAndGet(reading.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
                return file.read(position, into, offset, length);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            } finally {
                reading.decrementAndGet();
            }
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public long lastModified() throws IOException {
            return file.lastModified();
        }

        @Override
        public String fileKey() throws IOException {
            return file.fileKey();
        }

        @Override
        public ByteBuffer window(long position, int length) throws IOException {
            return file.window(position, length);
        }

        @Override
        public void releaseWindow() {
            file.releaseWindow();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    @Test
    void aBoundaryExactlyAfterALineEndIsKept() throws IOException {
        InputFile file = write("b.json", "1234567\n".repeat(4));
        List<FileSplit> splits = new SplitPlanner(16).plan(file);
        assertEquals(List.of(0L, 16L), splits.stream().map(FileSplit::start).toList());
        assertCoversWholeLines(file, splits);
    }

    @Test
    void aLineLongerThanSeveralWindowsMakesOneSplit() throws IOException {
        InputFile file = write("c.json", "a\n" + "x".repeat(1000) + "\nb\n");
        List<FileSplit> splits = new SplitPlanner(10).plan(file);
        assertCoversWholeLines(file, splits);
        assertEquals(2, splits.size());
        assertEquals(1003, splits.get(0).end());
    }

    @Test
    void lastLineWithoutLineEndEndsTheLastSplit() throws IOException {
        InputFile file = write("d.json", "aaaa\nbbbb\ncccc");
        List<FileSplit> splits = new SplitPlanner(6).plan(file);
        assertCoversWholeLines(file, splits);
        assertEquals(14, splits.get(splits.size() - 1).end());
    }

    @Test
    void emptyAndSmallFiles() throws IOException {
        assertEquals(List.of(), new SplitPlanner(64).plan(write("e.json", "")));
        InputFile small = write("f.json", "{}\n{}\n");
        List<FileSplit> splits = new SplitPlanner(1 << 20).plan(small);
        assertEquals(1, splits.size());
        assertEquals(6, splits.get(0).end());
        assertTrue(!splits.get(0).fileKey().isEmpty(), "file key recorded");
    }

    @Test
    void expandsDirectoriesAndGlobsSkippingHiddenFiles() throws IOException {
        write("1.json", "{}\n");
        write("2.ndjson", "{}\n");
        write(".hidden.json", "{}\n");
        write("_SUCCESS", "");
        Files.createDirectories(dir.resolve("sub"));
        write("sub/3.json", "{}\n");
        List<String> all = InputFiles.expand(List.of(dir.toString())).stream().map(InputFile::path).toList();
        assertEquals(List.of(dir.resolve("1.json").toString(), dir.resolve("2.ndjson").toString(),
                dir.resolve("sub/3.json").toString()), all);
        List<String> globbed = InputFiles.expand(List.of(dir + "/*.json")).stream().map(InputFile::path).toList();
        assertEquals(List.of(dir.resolve("1.json").toString()), globbed);
        assertThrows(InputNotFoundException.class, () -> InputFiles.expand(List.of(dir + "/nope.json")));
        assertThrows(InputNotFoundException.class, () -> InputFiles.expand(List.of(dir + "/*.csv")));
    }
}
