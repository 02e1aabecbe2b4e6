package dev.parq.job;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Lines of people with ids 1, 2, ...: a conversion's input whose rows a count and a sum of ids check. */
final class People {

    static final String SCHEMA = "id BIGINT, name STRING, score DOUBLE, tags ARRAY<STRING>";

    private People() {}

    /** Writes people until the file holds at least {@code bytes}; returns how many. */
    static long write(Path file, long bytes) throws IOException {
        long written = 0;
        long id = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            while (written < bytes) {
                String line = line(++id);
                out.write(line);
                written += line.length();
            }
        }
        return id;
    }

    static String line(long id) {
        return "{\"id\":" + id + ",\"name\":\"person-" + id + "\",\"score\":" + (id % 1000) / 4.0
                + ",\"tags\":[\"t" + id % 7 + "\",\"batch-" + id / 10_000 + "\"]}\n";
    }
}
