package dev.parq.source.enumerator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import dev.parq.source.split.FileSplit;
import dev.parq.source.split.LineSnapper;

/**
 * Cuts files into splits of about {@code splitSize} bytes: the nominal boundaries are multiples of
 * the split size, each snapped forward to the next line start. Only the bytes between a boundary
 * and the next {@code '\n'} are read; a line longer than a window yields one longer split.
 */
public final class SplitPlanner {

    private final long splitSize;

    public SplitPlanner(long splitSize) {
        if (splitSize <= 0) {
            throw new IllegalArgumentException("split size must be positive, got " + splitSize);
        }
        this.splitSize = splitSize;
    }

    public List<FileSplit> plan(List<InputFile> files) throws IOException {
        List<FileSplit> splits = new ArrayList<>();
        for (InputFile file : files) {
            splits.addAll(plan(file));
        }
        return splits;
    }

    public List<FileSplit> plan(InputFile file) throws IOException {
        if (file.length() == 0) {
            return List.of();
        }
        try (FileChannel channel = FileChannel.open(Path.of(file.path()), StandardOpenOption.READ)) {
            LineSnapper snapper = new LineSnapper(
                    (position, into, length) -> channel.read(ByteBuffer.wrap(into, 0, length), position),
                    file.length());
            return plan(file, snapper);
        }
    }

    List<FileSplit> plan(InputFile file, LineSnapper snapper) throws IOException {
        List<FileSplit> splits = new ArrayList<>();
        long start = 0;
        long window = 1;
        while (start < file.length()) {
            long nominal = window * splitSize;
            window++;
            if (nominal <= start) {
                // A line longer than a window: jump to the first boundary after it.
                window = start / splitSize + 1;
                continue;
            }
            long end = snapper.snap(nominal);
            if (end > start) {
                splits.add(new FileSplit(
                        file.path() + "@" + start, file.path(), file.fileKey(), start, end));
                start = end;
            }
        }
        return splits;
    }
}
