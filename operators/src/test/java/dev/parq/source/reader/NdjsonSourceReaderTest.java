package dev.parq.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.plugin.PluginManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.io.InputChangedException;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerator.SplitPlanner;
import dev.parq.source.enumerator.SplitsRestored;
import dev.parq.source.split.FileSplit;
import dev.parq.source.split.FileSplitSerializer;

class NdjsonSourceReaderTest {

    /** What a chunk held, copied out of it before the next poll unmaps it. */
    record Chunk(String file, long offset, String text) {
        long end() {
            return offset + text.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    /** A chunk that told of a damaged stream. */
    record Damage(String file, long lostFrom, String reason) {}

    /** The scheme of a file system that is not the local one, as an object store's is, over local files. */
    private static final String OBJECTS = "objects";

    @TempDir
    Path dir;

    private final TestingReaderContext context = new TestingReaderContext();
    private final TestingReaderOutput<LineChunk> output = new TestingReaderOutput<>();
    private final List<NdjsonSourceReader> readers = new ArrayList<>();
    /** The damage told of by the chunks polled, in order. */
    private final List<Damage> told = new ArrayList<>();

    @BeforeAll
    static void objectStore() {
        FileSystem.initialize(new Configuration(), new PluginManager() {
            @Override
            @SuppressWarnings("unchecked")
            public <P> Iterator<P> load(Class<P> service) {
                if (service != FileSystemFactory.class) {
                    return Collections.emptyIterator();
                }
                FileSystemFactory objects = new FileSystemFactory() {
                    @Override
                    public String getScheme() {
                        return OBJECTS;
                    }

                    @Override
                    public FileSystem create(URI uri) {
                        return LocalFileSystem.getSharedInstance();
                    }
                };
                return (Iterator<P>) List.of(objects).iterator();
            }
        });
    }

    @AfterAll
    static void noObjectStore() {
        FileSystem.initialize(new Configuration(), null);
    }

    @AfterEach
    void closeReaders() throws Exception {
        for (NdjsonSourceReader reader : readers) {
            reader.close();
        }
    }

    private NdjsonSourceReader reader(long chunkSize) {
        NdjsonSourceReader reader = new NdjsonSourceReader(context, chunkSize);
        readers.add(reader);
        reader.start();
        return reader;
    }

    private InputFile write(String name, String content) throws IOException {
        return InputFile.of(Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8));
    }

    private static FileSplit whole(InputFile file) {
        return new FileSplit(file.path() + "@0", file.path(), file.fileKey(), 0, file.length());
    }

    /** One poll; what it emitted, copied. */
    private InputStatus poll(NdjsonSourceReader reader, List<Chunk> into) throws Exception {
        InputStatus status = reader.pollNext(output);
        for (LineChunk chunk : output.getEmittedRecords()) {
            if (chunk.damage() != null) {
                assertEquals(0, chunk.length(), chunk.toString());
                told.add(new Damage(chunk.file(), chunk.fileOffset(), chunk.damage()));
                continue;
            }
            byte[] bytes = new byte[chunk.length()];
            chunk.buffer().duplicate().get(bytes);
            into.add(new Chunk(chunk.file(), chunk.fileOffset(), new String(bytes, StandardCharsets.UTF_8)));
        }
        output.clearEmittedRecords();
        return status;
    }

    /** Polls while the reader says more is available; returns the chunks and the status it ended on. */
    private InputStatus drain(NdjsonSourceReader reader, List<Chunk> into) throws Exception {
        InputStatus status;
        do {
            status = poll(reader, into);
        } while (status == InputStatus.MORE_AVAILABLE);
        return status;
    }

    private List<Chunk> readAll(NdjsonSourceReader reader, List<FileSplit> splits) throws Exception {
        reader.addSplits(splits);
        reader.notifyNoMoreSplits();
        List<Chunk> chunks = new ArrayList<>();
        assertEquals(InputStatus.END_OF_INPUT, drain(reader, chunks));
        return chunks;
    }

    private static String text(List<Chunk> chunks) {
        StringBuilder text = new StringBuilder();
        chunks.forEach(chunk -> text.append(chunk.text()));
        return text.toString();
    }

    private static String logLines(int count) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < count; i++) {
            lines.append("{\"id\":").append(i).append(",\"msg\":\"").append("ü".repeat(i % 9)).append("\"}\n");
        }
        return lines.toString();
    }

    /**
     * Splits planned with boundaries inside lines, read in chunks smaller than a split: each split
     * yields exactly its own lines, every chunk ends at a line end, and together they are the file.
     */
    @Test
    void eachSplitIsReadAsChunksOfItsWholeLines() throws Exception {
        String content = logLines(60);
        InputFile file = write("in.ndjson", content);
        List<FileSplit> splits = new SplitPlanner(300).plan(file);
        assertTrue(splits.size() > 3, "the planner cut the file: " + splits);
        List<Chunk> chunks = readAll(reader(64), splits);

        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        for (FileSplit split : splits) {
            List<Chunk> ofSplit = chunks.stream()
                    .filter(chunk -> chunk.offset() >= split.start() && chunk.offset() < split.end()).toList();
            assertEquals(new String(bytes, (int) split.start(), (int) split.length(), StandardCharsets.UTF_8),
                    text(ofSplit), "the lines of " + split);
            assertEquals(split.end(), ofSplit.get(ofSplit.size() - 1).end(), "no chunk crosses the end of " + split);
        }
        long expectedOffset = 0;
        for (Chunk chunk : chunks) {
            assertEquals(file.path(), chunk.file());
            assertEquals(expectedOffset, chunk.offset(), "chunks follow each other");
            assertTrue(chunk.text().endsWith("\n"), "a chunk of whole lines: " + chunk);
            assertTrue(chunk.text().getBytes(StandardCharsets.UTF_8).length <= 64, "at most a chunk: " + chunk);
            expectedOffset = chunk.end();
        }
        assertEquals(content, text(chunks));
    }

    /** The planner moves a boundary inside a line to the line's end; the reader then reads it once, in the split before. */
    @Test
    void aLineAcrossANominalSplitBoundaryIsReadOnceInTheSplitBeforeIt() throws Exception {
        InputFile file = write("in.ndjson", "{\"a\":1}\n{\"bbbbbb\":2}\n{\"c\":3}\n");
        List<FileSplit> splits = new SplitPlanner(10).plan(file);
        assertEquals(List.of(0L, 21L), splits.stream().map(FileSplit::start).toList());
        NdjsonSourceReader reader = reader(1024);
        List<Chunk> first = readAll(reader, splits.subList(0, 1));
        assertEquals(List.of(new Chunk(file.path(), 0, "{\"a\":1}\n{\"bbbbbb\":2}\n")), first);
        List<Chunk> second = readAll(reader(1024), splits.subList(1, 2));
        assertEquals(List.of(new Chunk(file.path(), 21, "{\"c\":3}\n")), second);
    }

    /** A line longer than a chunk is not cut: the window grows until a line end is in it. */
    @Test
    void aLineLongerThanAChunkIsReadWhole() throws Exception {
        String longLine = "{\"s\":\"" + "x".repeat(100) + "\"}\n";
        String content = "{}\n" + longLine + logLines(10);
        InputFile file = write("in.ndjson", content);
        List<Chunk> chunks = readAll(reader(8), List.of(whole(file)));
        assertEquals(new Chunk(file.path(), 0, "{}\n"), chunks.get(0));
        assertTrue(chunks.get(1).text().startsWith(longLine), "the long line in one chunk: " + chunks);
        assertTrue(chunks.stream().allMatch(chunk -> chunk.text().endsWith("\n")), "chunks of whole lines: " + chunks);
        assertEquals(content, text(chunks));
    }

    @Test
    void aLastLineWithoutALineEndIsRead() throws Exception {
        InputFile file = write("in.ndjson", "{\"a\":1}\n{\"a\":2}");
        assertEquals(List.of(new Chunk(file.path(), 0, "{\"a\":1}\n"), new Chunk(file.path(), 8, "{\"a\":2}")),
                readAll(reader(10), List.of(whole(file))));
        assertEquals(List.of(new Chunk(file.path(), 0, "{\"a\":1}\n{\"a\":2}")),
                readAll(reader(1024), List.of(whole(file))));
    }

    /** The planner gives an empty file no split; one made for it anyway yields nothing and the reader goes on. */
    @Test
    void anEmptyFileYieldsNothing() throws Exception {
        InputFile empty = write("empty.ndjson", "");
        InputFile next = write("next.ndjson", "{}\n");
        assertEquals(List.of(), new SplitPlanner(100).plan(empty));
        assertEquals(List.of(new Chunk(next.path(), 0, "{}\n")), readAll(reader(64), List.of(whole(empty), whole(next))));
    }

    /**
     * A checkpoint holds the split being read at the first byte not yet emitted (a line start), then the
     * splits not yet started; a reader restored from it, through the split serializer as Flink does,
     * emits the rest: together, every line exactly once.
     */
    @Test
    void aRestoredReaderResumesAtTheOffsetOfTheCheckpoint() throws Exception {
        String content = logLines(40);
        InputFile file = write("in.ndjson", content);
        List<FileSplit> splits = new SplitPlanner(file.length() / 2).plan(file);
        assertEquals(2, splits.size(), "" + splits);
        NdjsonSourceReader reader = reader(100);
        reader.addSplits(splits);
        List<Chunk> before = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            assertEquals(InputStatus.MORE_AVAILABLE, poll(reader, before));
        }
        long reached = before.get(before.size() - 1).end();
        assertTrue(reached < splits.get(0).end(), "still inside the first split at " + reached);
        List<FileSplit> checkpoint = reader.snapshotState(1);
        assertEquals(List.of(splits.get(0).withOffset(reached), splits.get(1)), checkpoint);
        assertEquals('\n', content.getBytes(StandardCharsets.UTF_8)[(int) reached - 1]);

        List<FileSplit> restored = new ArrayList<>();
        FileSplitSerializer serializer = FileSplitSerializer.INSTANCE;
        for (FileSplit split : checkpoint) {
            restored.add(serializer.deserialize(serializer.getVersion(), serializer.serialize(split)));
        }
        List<Chunk> after = readAll(reader(100), restored);
        assertEquals(reached, after.get(0).offset());
        assertEquals(content, text(before) + text(after));
    }

    /**
     * A compressed file, read as one stream, checkpointed part way: restored, it is inflated again
     * from its start, and the lines before the checkpoint are passed over, not emitted again.
     */
    @Test
    void aStreamCheckpointedPartWayResumesAfterTheLinesItHandedOn() throws Exception {
        String content = logLines(200);
        Path gz = Files.write(dir.resolve("in.ndjson.gz"), gzip(content));
        FileSplit split = whole(InputFile.of(gz));
        List<Chunk> before = new ArrayList<>();
        List<FileSplit> checkpoint = checkpointedPartWay(reader(4096), split, before);
        long reached = before.get(before.size() - 1).end();
        assertTrue(reached < content.length(), "part way at " + reached);

        List<Chunk> after = readAll(reader(1000), checkpoint);
        assertEquals(reached, after.get(0).offset());
        assertEquals(content, text(before) + text(after));
    }

    /**
     * A followed object whose gzip stream is cut: its whole lines before the cut are handed on, then
     * one chunk that tells where its lost lines begin, and the split is done in that poll, so that
     * no checkpoint holds it past the damage. Restored from a checkpoint taken part way, the reader
     * inflates it again, hands on the rest of those lines and tells of the damage once more: the
     * record of the first telling, made after that checkpoint, is not committed in that case.
     */
    @Test
    void aDamagedObjectIsToldOfOnceWithWhereItsLostLinesBegin() throws Exception {
        String content = logLines(3000);
        byte[] compressed = gzip(content);
        byte[] cut = Arrays.copyOf(compressed, compressed.length / 2);
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        try (var in = new GZIPInputStream(new ByteArrayInputStream(cut))) {
            assertThrows(EOFException.class, () -> in.transferTo(inflated));
        }
        String before = inflated.toString(StandardCharsets.UTF_8);
        String whole = before.substring(0, before.lastIndexOf('\n') + 1);
        long lostFrom = whole.getBytes(StandardCharsets.UTF_8).length;
        FileSplit split = objectSplit("cut.ndjson.gz", cut);

        NdjsonSourceReader reader = followingReader(4096);
        List<Chunk> first = new ArrayList<>();
        List<FileSplit> partWay = checkpointedPartWay(reader, split, first);
        int handedOn = first.size();
        long reached = first.get(handedOn - 1).end();
        assertEquals(InputStatus.NOTHING_AVAILABLE, drain(reader, first));
        assertEquals(List.of(), reader.snapshotState(2), "the damaged split is done");
        assertEquals(whole, text(first));
        Damage damage = new Damage(split.path(), lostFrom, told.get(0).reason());
        assertEquals(List.of(damage), told);
        assertTrue(damage.reason().startsWith("truncated or corrupt gzip stream: it cannot be read past byte "),
                damage.reason());

        told.clear();
        List<Chunk> restored = readAll(followingReader(4096), partWay);
        assertEquals(reached, restored.get(0).offset());
        assertEquals(whole, text(first.subList(0, handedOn)) + text(restored));
        assertEquals(List.of(damage), told);
    }

    /**
     * A followed object whose gzip header cannot be read is told of as lost from its first byte, and
     * the reader goes on with the next object it is given, not with the bytes of the one it passed over.
     */
    @Test
    void anObjectWhoseGzipHeaderCannotBeReadIsToldOfAndTheNextObjectRead() throws Exception {
        byte[] headless = gzip(logLines(20));
        headless[2] = 7;
        FileSplit broken = objectSplit("broken.ndjson.gz", headless);
        String plain = logLines(30);
        FileSplit next = objectSplit("next.ndjson", plain.getBytes(StandardCharsets.UTF_8));
        NdjsonSourceReader reader = followingReader(100);
        reader.addSplits(List.of(broken));
        List<Chunk> chunks = new ArrayList<>();
        assertEquals(InputStatus.NOTHING_AVAILABLE, drain(reader, chunks));
        assertEquals(List.of(), reader.snapshotState(1), "the broken split is done");
        chunks.addAll(readAll(reader, List.of(next)));
        assertEquals(plain, text(chunks));
        assertTrue(chunks.stream().allMatch(chunk -> chunk.file().equals(next.path())), chunks.toString());
        assertEquals(List.of(new Damage(broken.path(), 0, "truncated or corrupt gzip stream: it cannot be read past"
                + " byte 0 of the decompressed stream (Unsupported compression method)")), told);
    }

    /**
     * Gives {@code reader} the split of a stream and polls it once: the checkpoint it takes then,
     * returned, holds the split part way, after the lines polled into {@code into}.
     */
    private List<FileSplit> checkpointedPartWay(NdjsonSourceReader reader, FileSplit split, List<Chunk> into)
            throws Exception {
        reader.addSplits(List.of(split));
        assertEquals(InputStatus.MORE_AVAILABLE, poll(reader, into));
        List<FileSplit> checkpoint = reader.snapshotState(1);
        assertEquals(List.of(split.withStreamed(into.get(into.size() - 1).end())), checkpoint);
        return checkpoint;
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private NdjsonSourceReader followingReader(long chunkSize) {
        NdjsonSourceReader reader = new NdjsonSourceReader(context, chunkSize, true);
        readers.add(reader);
        reader.start();
        return reader;
    }

    /** The split of a whole object of {@code bytes}, put under {@code name} on the {@link #OBJECTS} store. */
    private FileSplit objectSplit(String name, byte[] bytes) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        String path = OBJECTS + "://" + file.toAbsolutePath();
        return new FileSplit(path + "@0", path, "", 0, bytes.length);
    }

    /**
     * A following reader restored from a checkpoint tells its enumerator, as it starts, how much its
     * restored splits leave to read; a fresh one, or one that only converts, says nothing.
     */
    @Test
    void aFollowingReaderRestoredWithSplitsSaysHowMuchIsLeftToRead() throws Exception {
        InputFile file = write("in.ndjson", logLines(40));
        List<FileSplit> splits = new SplitPlanner(file.length() / 3).plan(file);
        FileSplit halfRead = splits.get(0).withOffset(splits.get(0).end() / 2);
        NdjsonSourceReader restored = new NdjsonSourceReader(context, 100, true);
        readers.add(restored);
        restored.addSplits(List.of(halfRead, splits.get(1)));
        restored.start();
        assertEquals(List.of(new SplitsRestored(halfRead.unread() + splits.get(1).unread())), context.getSentEvents());

        TestingReaderContext fresh = new TestingReaderContext();
        NdjsonSourceReader following = new NdjsonSourceReader(fresh, 100, true);
        readers.add(following);
        following.start();
        following.addSplits(splits);
        NdjsonSourceReader converting = new NdjsonSourceReader(fresh, 100, false);
        readers.add(converting);
        converting.addSplits(splits);
        converting.start();
        assertTrue(fresh.getSentEvents().isEmpty(), fresh.getSentEvents().toString());
    }

    /**
     * Flink keeps an output and a metric group for each split id a reader is given until the reader
     * lets go of it, once (twice fails the task): every id is let go of once its splits are read or
     * passed over.
     */
    @Test
    void theOutputOfEachSplitIsLetGoOfOnceItIsDone() throws Exception {
        InputFile file = write("in.ndjson", logLines(40));
        List<FileSplit> splits = new SplitPlanner(file.length() / 3).plan(file);
        FileSplit gone = new FileSplit("gone@0", dir.resolve("gone.ndjson").toString(), "", 0, 10);
        List<String> released = new ArrayList<>();
        TestingReaderOutput<LineChunk> releasing = new TestingReaderOutput<>() {
            @Override
            public void releaseOutputForSplit(String splitId) {
                released.add(splitId);
            }
        };
        NdjsonSourceReader reader = new NdjsonSourceReader(context, 100, true);
        readers.add(reader);
        reader.start();
        List<FileSplit> all = new ArrayList<>(splits);
        all.add(gone);
        // A second split under an id already given: the id is let go of once, after both.
        all.add(splits.get(0));
        reader.addSplits(all);
        reader.notifyNoMoreSplits();
        while (reader.pollNext(releasing) != InputStatus.END_OF_INPUT) {
            releasing.clearEmittedRecords();
        }
        List<String> expected = new ArrayList<>(splits.stream().skip(1).map(FileSplit::splitId).toList());
        expected.add(gone.splitId());
        expected.add(splits.get(0).splitId());
        assertEquals(expected, released);
    }

    @Test
    void aSplitNotYetStartedIsCheckpointedAtItsStart() throws Exception {
        InputFile file = write("in.ndjson", logLines(10));
        NdjsonSourceReader reader = reader(64);
        List<FileSplit> splits = new SplitPlanner(100).plan(file);
        reader.addSplits(splits);
        assertEquals(splits, reader.snapshotState(1));
    }

    /**
     * The reader asks for its first split when it starts and for another when it runs out, one request at a
     * time, waits meanwhile, and ends once the enumerator says there is no more.
     */
    @Test
    void theReaderAsksForSplitsWhenIdleAndEndsWhenThereAreNoMore() throws Exception {
        InputFile file = write("in.ndjson", "{}\n");
        NdjsonSourceReader reader = reader(64);
        assertEquals(1, context.getNumSplitRequests());
        List<Chunk> chunks = new ArrayList<>();
        assertEquals(InputStatus.NOTHING_AVAILABLE, poll(reader, chunks));
        assertEquals(InputStatus.NOTHING_AVAILABLE, poll(reader, chunks));
        assertEquals(1, context.getNumSplitRequests(), "one request outstanding at a time");
        assertFalse(reader.isAvailable().isDone());

        reader.addSplits(List.of(whole(file)));
        assertTrue(reader.isAvailable().isDone());
        assertEquals(InputStatus.NOTHING_AVAILABLE, drain(reader, chunks));
        assertEquals(List.of(new Chunk(file.path(), 0, "{}\n")), chunks);
        assertEquals(2, context.getNumSplitRequests(), "asked for the next split once done with the first");
        assertFalse(reader.isAvailable().isDone());

        reader.notifyNoMoreSplits();
        assertTrue(reader.isAvailable().isDone());
        assertEquals(InputStatus.END_OF_INPUT, poll(reader, chunks));
        assertEquals(2, context.getNumSplitRequests());
    }

    /** A split names its file by identity and length: a file replaced or cut since it was planned is not read. */
    @Test
    void aFileReplacedOrShrunkSinceItWasPlannedIsNotRead() throws Exception {
        InputFile file = write("in.ndjson", "{}\n{}\n");
        FileSplit otherFile = new FileSplit("x", file.path(), "(dev=0,ino=0)", 0, file.length());
        IOException replaced = assertThrows(IOException.class, () -> readAll(reader(64), List.of(otherFile)));
        assertTrue(replaced.getMessage().startsWith("input file " + file.path() + " was replaced"), replaced.getMessage());
        FileSplit longer = new FileSplit("x", file.path(), file.fileKey(), 0, file.length() + 3);
        IOException shrank = assertThrows(IOException.class, () -> readAll(reader(64), List.of(longer)));
        assertTrue(shrank.getMessage().startsWith("input file " + file.path() + " was truncated"), shrank.getMessage());
    }

    /** A file truncated between two chunks of its split: the next window is not mapped past its end. */
    @Test
    void aFileTruncatedBetweenChunksFailsTheReadNamingIt() throws Exception {
        InputFile file = write("in.ndjson", "{\"a\":1}\n".repeat(4096));
        NdjsonSourceReader reader = reader(4096);
        reader.addSplits(List.of(whole(file)));
        assertEquals(InputStatus.MORE_AVAILABLE, poll(reader, new ArrayList<>()));
        try (FileChannel channel = FileChannel.open(Path.of(file.path()), StandardOpenOption.WRITE)) {
            channel.truncate(100);
        }
        InputChangedException changed = assertThrows(InputChangedException.class, () -> drain(reader, new ArrayList<>()));
        assertTrue(changed.getMessage().startsWith("input file " + file.path() + " was truncated while it was being read:"
                + " at byte 4096 it has 100 bytes"), changed.getMessage());
    }

    /**
     * A file truncated while the chained parser reads a chunk: touching a mapped page past the new
     * end faults, which the JVM raises as an InternalError; the reader tells it as the truncation it is.
     */
    @Test
    void aFileTruncatedUnderTheParserFailsTheReadNamingIt() throws Exception {
        InputFile file = write("in.ndjson", "{\"a\":1}\n".repeat(4096));
        NdjsonSourceReader reader = reader(16384);
        reader.addSplits(List.of(whole(file)));
        TestingReaderOutput<LineChunk> parser = new TestingReaderOutput<>() {
            @Override
            public void collect(LineChunk chunk) {
                try (FileChannel channel = FileChannel.open(Path.of(file.path()), StandardOpenOption.WRITE)) {
                    channel.truncate(100);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                long sum = 0;
                for (int i = 0; i < chunk.length(); i += 1024) {
                    sum += chunk.buffer().get(i);
                }
                assertTrue(sum > 0, "the parser's reads were made");
                super.collect(chunk);
            }
        };
        InputChangedException changed = assertThrows(InputChangedException.class, () -> reader.pollNext(parser));
        assertTrue(changed.getMessage().startsWith("input file " + file.path() + " was truncated"), changed.getMessage());
    }
}
