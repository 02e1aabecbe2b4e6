package dev.parq.job;

import static dev.parq.job.ParqJar.JAR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink's Prometheus reporter under {@code ./parq}, set with Flink's own keys, scraped during an
 * ingest: parq's metrics are there under their documented names, and move as lines are appended
 * and committed. The reporter listens on every interface, so the ingest runs in a network
 * namespace of its own, and the scrape is made from inside it.
 */
class MetricsIT {

    private static final int PORT = 9249;
    /** parq's metrics as the README lists them; each must be in a scrape of an ingest. */
    private static final List<String> DOCUMENTED = List.of("parqRecordsIn", "parqRowsOut", "parqRejectedLines",
            "parqBytesIn", "bytesBehind", "trackedFiles", "oldestUnreadAge", "lastCommittedCheckpoint",
            "timeSinceLastCommit");
    private static final Pattern SAMPLE = Pattern.compile("^flink_\\S*?_([A-Za-z]+)\\{[^}]*\\} (\\S+)$",
            Pattern.MULTILINE);

    @TempDir
    Path dir;

    private Process ingest;

    @AfterEach
    void stopIngest() {
        if (ingest != null && ingest.isAlive()) {
            ingest.destroyForcibly();
        }
    }

    @Test
    void anIngestsMetricsAreScrapedAndMove() throws Exception {
        assumeTrue(works("unshare", "-n", "ip", "link", "set", "lo", "up"),
                "skipped: a private network namespace cannot be made here (unshare -n needs root and iproute2)");
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path output = dir.resolve("out");
        NumberedLines lines = new NumberedLines();
        Files.writeString(log, lines.next(1000), StandardCharsets.UTF_8);

        ingest = new ProcessBuilder("unshare", "-n", "sh", "-c", "ip link set lo up && exec \"$@\"", "sh",
                "java", "-Xmx256m", "-jar", JAR.toString(), "ingest", logs.resolve("app.log*").toString(),
                "-o", output.toString(), "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s",
                "--compaction-interval", "1s", "--discover-interval", "200ms", "-p", "2", "--no-progress",
                "-Dmetrics.reporter.prom.factory.class=org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                "-Dmetrics.reporter.prom.port=" + PORT)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile())
                .start();

        Map<String, Double> first = await(m -> m.getOrDefault("parqRecordsIn", 0.0) == 1000
                && m.getOrDefault("lastCommittedCheckpoint", 0.0) > 0);
        for (String name : DOCUMENTED) {
            assertTrue(first.containsKey(name), name + " is not scraped: " + first);
        }
        assertEquals(1.0, first.get("trackedFiles"));
        assertEquals(0.0, first.get("parqRejectedLines"));

        Files.writeString(log, lines.next(500), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Map<String, Double> second = await(m -> m.getOrDefault("parqRowsOut", 0.0) == 1500
                && m.getOrDefault("lastCommittedCheckpoint", 0.0) > first.get("lastCommittedCheckpoint"));
        assertEquals(1500.0, second.get("parqRecordsIn"));
        assertEquals((double) Files.size(log), second.get("parqBytesIn"));
        assertEquals(0.0, second.get("bytesBehind"));
        assertEquals(0.0, second.get("oldestUnreadAge"));
        assertTrue(second.get("timeSinceLastCommit") < 30_000, second.toString());

        new ProcessBuilder("kill", "-TERM", Long.toString(ingest.pid())).start().waitFor();
        assertTrue(ingest.waitFor(NumberedLines.WAIT_SECONDS, TimeUnit.SECONDS), "ingest did not stop");
        assertEquals(0, ingest.exitValue(), Files.readString(dir.resolve("stderr")));
    }

    /** Scrapes until {@code done} holds of the sums over subtasks of the metrics, for at most 90 s. */
    private Map<String, Double> await(Predicate<Map<String, Double>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(NumberedLines.WAIT_SECONDS);
        Map<String, Double> last = Map.of();
        while (System.nanoTime() < deadline) {
            assertTrue(ingest.isAlive(), () -> "ingest ended: " + stderr());
            last = scrape();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("metrics did not get there in " + NumberedLines.WAIT_SECONDS + " s: " + last
                + "\n" + stderr());
    }

    /** One scrape from inside the ingest's namespace; empty while the reporter is not up. */
    private Map<String, Double> scrape() throws IOException, InterruptedException {
        Process curl = new ProcessBuilder("nsenter", "-t", Long.toString(ingest.pid()), "-n",
                "curl", "-sf", "http://127.0.0.1:" + PORT + "/metrics")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (curl.waitFor() != 0) {
            return Map.of();
        }
        Map<String, Double> sums = new HashMap<>();
        Matcher sample = SAMPLE.matcher(text);
        while (sample.find()) {
            sums.merge(sample.group(1), Double.parseDouble(sample.group(2)), Double::sum);
        }
        return sums;
    }

    private String stderr() {
        try {
            return Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static boolean works(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
