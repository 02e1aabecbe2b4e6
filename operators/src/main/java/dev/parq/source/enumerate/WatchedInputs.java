package dev.parq.source.enumerate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.io.Compression;
import dev.parq.io.Locations;

/**
 * Paths and globs looked at again every interval, for continuous ingest: what they match now is
 * what the enumerator follows. A path that matches nothing (yet, or any more) is no error here.
 * The inputs are local files or objects of an object store ({@code s3a://bucket/prefix/}), not
 * both: files are followed as they grow, objects read once each.
 *
 * <p>A local file named as compressed ({@code .gz}, {@code .zst}) is left out, with a warning the
 * first time: lines are followed as they are appended to a plain file, and a compressed file in a
 * log directory is usually a rotated one whose lines were read before it was compressed. A
 * compressed object is read as any other.
 */
public final class WatchedInputs implements InputDiscovery {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(WatchedInputs.class);

    private final List<String> inputs;
    private final Duration interval;
    private final boolean objects;
    private transient Set<String> skipped;
    /** Inputs named as paths that were regular files when looked at. */
    private transient Set<String> namedFiles;

    public WatchedInputs(List<String> inputs, Duration interval) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs to watch");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the discover interval must be positive, got " + interval);
        }
        this.inputs = List.copyOf(inputs);
        this.interval = interval;
        this.objects = !Locations.isLocal(inputs.get(0));
        for (String input : inputs) {
            if (Locations.isLocal(input) == objects) {
                throw new IllegalArgumentException("one ingest follows local files or objects of an object store,"
                        + " not both: " + inputs.get(0) + " and " + input);
            }
        }
    }

    @Override
    public boolean objects() {
        return objects;
    }

    @Override
    public List<InputFile> initialFiles() throws IOException {
        return currentFiles();
    }

    @Override
    public boolean watching() {
        return true;
    }

    @Override
    public Duration discoverInterval() {
        return interval;
    }

    @Override
    public List<InputFile> currentFiles() throws IOException {
        if (objects) {
            return currentObjects(KeyFloor.NONE).objects();
        }
        Map<String, InputFile> files = new LinkedHashMap<>();
        if (namedFiles == null) {
            namedFiles = new HashSet<>();
        }
        for (String input : inputs) {
            if (!InputFiles.isGlob(input)) {
                Path named = Path.of(input);
                if (Files.isRegularFile(named)) {
                    namedFiles.add(input);
                } else if (namedFiles.contains(input) && Files.isDirectory(named)) {
                    // Walking it would start on files nobody asked to follow, as if they were
                    // the file's next lines.
                    warnSkipped(input, "was a file and is a directory now: the files in it are not followed"
                            + " (name a directory to follow the files in it)");
                    continue;
                }
            }
            List<InputFile> found;
            try {
                found = InputFiles.expand(List.of(input));
            } catch (InputNotFoundException nothingYet) {
                continue;
            }
            for (InputFile file : found) {
                if (Compression.namedCompressed(file.path())) {
                    warnSkipped(file.path(), "is compressed and is not followed: ingest reads appended lines of"
                            + " plain files");
                } else if (isSpecial(file.path())) {
                    // A FIFO would block the scan that opens it until a writer came: named directly,
                    // it is listed as a file; directories' and globs' walks take regular files only.
                    warnSkipped(file.path(), "is not a regular file (a FIFO, socket or device) and is not followed");
                } else {
                    files.putIfAbsent(file.path(), file);
                }
            }
        }
        return new ArrayList<>(files.values());
    }

    @Override
    public Listing currentObjects(KeyFloor floor) throws IOException {
        if (!objects) {
            return new Listing(currentFiles(), 0);
        }
        Map<String, InputFile> found = new LinkedHashMap<>();
        int folders = 0;
        for (String input : inputs) {
            Listing listing = InputFiles.objects(input, floor);
            folders += listing.folders();
            for (InputFile object : listing.objects()) {
                found.putIfAbsent(object.path(), object);
            }
        }
        return new Listing(new ArrayList<>(found.values()), folders);
    }

    /** Whether {@code path} is there and is neither a regular file nor a directory. */
    private static boolean isSpecial(String path) {
        try {
            return Files.readAttributes(Path.of(path), BasicFileAttributes.class).isOther();
        } catch (IOException gone) {
            return false;
        }
    }

    private void warnSkipped(String path, String why) {
        if (skipped == null) {
            skipped = new HashSet<>();
        }
        if (skipped.add(path)) {
            LOG.warn("{} {}", path, why);
        }
    }
}
