package dev.parq.schema.infer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.parq.io.RangeReader;

/**
 * Picks the bytes to sample from the input: everything when it is small, otherwise windows spread
 * evenly over all files' bytes (the first at the very start, the last at the very end) plus the
 * head of each file. A window starts at the first line start at or after its offset and reads
 * whole lines. Files are read through {@link RangeReader}, wherever they are.
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

    static List<Window> windows(List<String> files, long sampleBytes) throws IOException {
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
        // In input order, so that columns come in order of first appearance.
        Map<String, Integer> order = new HashMap<>();
        for (int i = files.size() - 1; i >= 0; i--) {
            order.put(files.get(i), i);
        }
        windows.sort(Comparator.comparingInt((Window w) -> order.get(w.file())).thenComparingLong(Window::start));
        return windows;
    }

    /** Reads the whole lines that start in the window; the last one may run past its end. */
    private static void read(Window w, LineConsumer consumer) throws IOException {
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
