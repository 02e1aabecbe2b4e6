package dev.parq.schema.infer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.parq.io.Compression;
import dev.parq.io.CorruptInputException;
import dev.parq.io.LineStream;
import dev.parq.io.RangeReader;
import dev.parq.io.StandardInput;

/**
 * Picks the bytes to sample from the input: everything when it is small, otherwise windows spread
 * evenly over all files' bytes (the first at the very start, the last at the very end) plus the
 * head of each file. A window starts at the first line start at or after its offset and reads
 * whole lines. Files are read through {@link RangeReader}, wherever they are.
 *
 * <p>A compressed file, and standard input, can only be read from their start: each is sampled by
 * its head, its share of the sample size in bytes as decompressed. The head of standard input is
 * kept by {@link StandardInput} for the job to read again.
 */
public final class Sampler {

    public static final int WINDOWS = 16;
    private static final int MAX_LINE = 16 << 20;

    /** Receives each complete line sampled: bytes[from, to), without its line break. */
    public interface LineConsumer {
        void line(byte[] bytes, int from, int to);
    }

    record Window(String file, long start, long length) {}

    private Sampler() {}

    /**
     * Reads the sample's windows in parallel, each into a consumer of its own, and returns the
     * consumers in window order (the input's order), so that merging them in turn sees the keys in
     * the order a sequential read would.
     */
    public static <C extends LineConsumer> List<C> sampleInParallel(
            List<String> files, long sampleBytes, Supplier<C> newConsumer) {
        List<Window> windows;
        try {
            windows = windows(files, sampleBytes);
        } catch (IOException e) {
            throw unreadable(e);
        }
        return windows.parallelStream().map(w -> {
            C consumer = newConsumer.get();
            try {
                read(w, consumer);
            } catch (IOException e) {
                throw unreadable(e);
            }
            return consumer;
        }).toList();
    }

    private static UncheckedIOException unreadable(IOException e) {
        return new UncheckedIOException("cannot sample the input for schema inference: " + e.getMessage(), e);
    }

    static List<Window> windows(List<String> allFiles, long sampleBytes) throws IOException {
        List<String> files = new ArrayList<>();
        List<String> streamed = new ArrayList<>();
        for (String file : allFiles) {
            (isStreamed(file) ? streamed : files).add(file);
        }
        List<Window> windows = spread(files, sampleBytes);
        for (String file : streamed) {
            windows.add(new Window(file, 0, Math.max(1, sampleBytes / streamed.size())));
        }
        // In input order, so that columns come in order of first appearance.
        Map<String, Integer> order = new HashMap<>();
        for (int i = allFiles.size() - 1; i >= 0; i--) {
            order.put(allFiles.get(i), i);
        }
        windows.sort(Comparator.comparingInt((Window w) -> order.get(w.file())).thenComparingLong(Window::start));
        return windows;
    }

    private static boolean isStreamed(String file) throws IOException {
        if (StandardInput.names(file)) {
            return true;
        }
        try (RangeReader reader = RangeReader.open(file)) {
            return Compression.of(file, reader).compressed();
        }
    }

    /** Windows spread over {@code files}, which can be read anywhere. */
    private static List<Window> spread(List<String> files, long sampleBytes) throws IOException {
        long[] sizes = new long[files.size()];
        long total = 0;
        for (int i = 0; i < sizes.length; i++) {
            try (RangeReader reader = RangeReader.open(files.get(i))) {
                sizes[i] = reader.size();
            }
            total += sizes[i];
        }
        List<Window> windows = new ArrayList<>();
        if (total <= sampleBytes) {
            for (int i = 0; i < sizes.length; i++) {
                windows.add(new Window(files.get(i), 0, sizes[i]));
            }
            return windows;
        }
        long length = Math.max(1, sampleBytes / WINDOWS);
        long headLength = Math.max(1, length / 8);
        if (files.size() <= 4 * WINDOWS) {
            for (int i = 0; i < sizes.length; i++) {
                windows.add(new Window(files.get(i), 0, Math.min(headLength, sizes[i])));
            }
        }
        long[] fileStarts = new long[sizes.length];
        for (int i = 1; i < sizes.length; i++) {
            fileStarts[i] = fileStarts[i - 1] + sizes[i - 1];
        }
        for (int w = 0; w < WINDOWS; w++) {
            long global = (total - length) * w / (WINDOWS - 1);
            int file = Arrays.binarySearch(fileStarts, global);
            if (file < 0) {
                file = -file - 2;
            }
            while (sizes[file] == 0 || global - fileStarts[file] >= sizes[file]) {
                file++;
            }
            long local = global - fileStarts[file];
            windows.add(new Window(files.get(file), local, Math.min(length, sizes[file] - local)));
        }
        return windows;
    }

    /** Reads the whole lines that start in the window; the last one may run past its end. */
    private static void read(Window w, LineConsumer consumer) throws IOException {
        if (isStreamed(w.file())) {
            readHead(w, consumer);
            return;
        }
        try (RangeReader reader = RangeReader.open(w.file())) {
            long size = reader.size();
            long position = w.start();
            if (position > 0) {
                byte[] previous = new byte[1];
                if (reader.read(position - 1, previous, 0, 1) == 1 && previous[0] != '\n') {
                    position = nextLineStart(reader, position, size);
                }
            }
            long end = Math.min(size, w.start() + w.length());
            if (position >= end) {
                return;
            }
            byte[] bytes = new byte[(int) Math.min(end - position + 4096, Integer.MAX_VALUE - 16)];
            int filled = readFully(reader, position, bytes, 0, (int) Math.min(bytes.length, size - position));
            int lineStart = 0;
            for (int i = 0; ; i++) {
                if (i == filled) {
                    long fileIndex = position + filled;
                    if (fileIndex >= size || filled - lineStart >= MAX_LINE) {
                        if (fileIndex >= size && i > lineStart) {
                            consumer.line(bytes, lineStart, i);
                        }
                        return;
                    }
                    if (filled == bytes.length) {
                        bytes = Arrays.copyOf(bytes, Math.min(bytes.length * 2, Integer.MAX_VALUE - 16));
                    }
                    filled += readFully(reader, fileIndex, bytes, filled,
                            (int) Math.min(bytes.length - filled, size - fileIndex));
                }
                if (bytes[i] == '\n') {
                    consumer.line(bytes, lineStart, i);
                    lineStart = i + 1;
                    if (position + lineStart >= end) {
                        return;
                    }
                }
            }
        }
    }

    /**
     * Reads the whole lines of the stream's first {@code w.length()} bytes as decompressed. Of
     * standard input, only the head kept for the job is there: a stream that goes on past it ends
     * in a partial line, or a compressed block cut short, neither of which is sampled.
     */
    private static void readHead(Window w, LineConsumer consumer) throws IOException {
        String label = w.file();
        InputStream raw;
        Compression compression;
        boolean whole = true;
        RangeReader reader = null;
        if (StandardInput.names(w.file())) {
            label = StandardInput.LABEL;
            byte[] head = StandardInput.head((int) Math.min(w.length(), Integer.MAX_VALUE - 16));
            whole = StandardInput.headIsAll();
            raw = new ByteArrayInputStream(head);
            compression = Compression.of(label, head, head.length);
        } else {
            reader = RangeReader.open(w.file());
            compression = Compression.of(w.file(), reader);
            raw = reader.stream();
        }
        try (RangeReader closed = reader;
                LineStream lines = LineStream.open(label, raw, compression, 1 << 20, MAX_LINE)) {
            long read = 0;
            ByteBuffer chunk;
            while (read < w.length() && (chunk = lines.next()) != null) {
                byte[] bytes = chunk.array();
                int from = chunk.arrayOffset();
                int to = from + chunk.remaining();
                int lineStart = from;
                for (int i = from; i < to; i++) {
                    if (bytes[i] == '\n') {
                        consumer.line(bytes, lineStart, i);
                        lineStart = i + 1;
                    }
                }
                if (lineStart < to && whole) {
                    consumer.line(bytes, lineStart, to);
                }
                read += chunk.remaining();
            }
        } catch (CorruptInputException cutShort) {
            if (whole) {
                throw cutShort;
            }
        }
    }

    private static long nextLineStart(RangeReader reader, long from, long size) throws IOException {
        byte[] chunk = new byte[64 << 10];
        long position = from;
        while (position < size) {
            int n = reader.read(position, chunk, 0, (int) Math.min(chunk.length, size - position));
            if (n <= 0) {
                break;
            }
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    return position + i + 1;
                }
            }
            position += n;
        }
        return size;
    }

    private static int readFully(RangeReader reader, long position, byte[] into, int offset, int length)
            throws IOException {
        return Math.max(0, reader.read(position, into, offset, length));
    }
}
