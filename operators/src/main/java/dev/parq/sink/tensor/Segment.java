package dev.parq.sink.tensor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A finished segment file: the rows, row-major and little-endian, that one sink writer wrote for
 * the contiguous byte range {@code [start, end)} of input file number {@code fileIndex}. Its name
 * says which range it holds, so the segments of all writers can be put in input order.
 */
public record Segment(Path path, int fileIndex, long start, long end) {

    private static final Pattern NAME = Pattern.compile("f(\\d{6})-(\\d{20})-(\\d{20})\\.rows");

    static String fileName(int fileIndex, long start, long end) {
        return String.format("f%06d-%020d-%020d.rows", fileIndex, start, end);
    }

    /**
     * The finished segments in {@code directory}, in input order (file, then offset); files whose
     * names are not segment names, such as a writer's unfinished segment, are ignored.
     *
     * @throws IOException also when two segments overlap, which would duplicate rows
     */
    public static List<Segment> listInOrder(Path directory) throws IOException {
        List<Segment> segments = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path path : entries.toList()) {
                Matcher name = NAME.matcher(path.getFileName().toString());
                if (name.matches()) {
                    segments.add(new Segment(path, Integer.parseInt(name.group(1)),
                            Long.parseLong(name.group(2)), Long.parseLong(name.group(3))));
                }
            }
        }
        segments.sort(Comparator.comparingInt(Segment::fileIndex).thenComparingLong(Segment::start));
        for (int i = 1; i < segments.size(); i++) {
            Segment before = segments.get(i - 1);
            Segment after = segments.get(i);
            if (before.fileIndex() == after.fileIndex() && before.end() > after.start()) {
                throw new IOException("segments " + before.path().getFileName() + " and "
                        + after.path().getFileName() + " overlap: rows would be duplicated");
            }
        }
        return segments;
    }
}
