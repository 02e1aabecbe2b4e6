package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.mutation.Mutation;
import dev.parq.testing.DuckDb;

/**
 * {@code ingest} of a prefix of an object store, on the S3-compatible test server: an uploader adds
 * objects under date-named keys, as a log shipper does (plain and gzip of two members, some by
 * multipart upload), while parq follows the prefix into a table on the same store, its state there
 * too, and is killed with SIGKILL and started again. Every line of every object is in the table
 * once.
 */
class ObjectIngestS3IT {

    /** Where the numbers of the damaged object's lines start: apart from the uploader's. */
    private static final long DAMAGED_FROM = 1_000_000_000L;
    /** Where the numbers of the lines of an object that lands late under an old folder start. */
    private static final long LATE_FROM = 2_000_000_000L;
    private static final long LATE_LINES = 50;
    /** Where the damaged objects are put under each followed prefix. */
    private static final String DAMAGED_KEY = "/2026/12/06/00/damaged.ndjson.gz";
    private static final String UNREADABLE_KEY = "/2026/12/06/00/unreadable.ndjson.gz";

    private static S3Server s3;
    @TempDir
    static Path serverRoot;
    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();
    private S3Ingests parq;
    /** How many whole lines the damaged object holds before its damage. */
    private long linesBeforeDamage;
    /** The bytes of those lines, decompressed: where the lines lost begin. */
    private long bytesBeforeDamage;

    @BeforeAll
    static void startServer() throws Exception {
        s3 = S3Server.start(serverRoot, "landing", "table", "mutated", "unrecorded", "days", "days-whole");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    @BeforeEach
    void processes() {
        parq = new S3Ingests(s3, dir);
    }

    @AfterEach
    void killLeftovers() {
        parq.killLeftovers();
    }

    /**
     * Also two damaged gzip objects among them: one cut in its middle (its lines numbered apart, from
     * {@link #DAMAGED_FROM}), one whose header is broken. The lines before the damage are committed
     * once, the log names each object, each is named once in {@code _rejected/} with the offset
     * from which its lines are lost, and the ingest goes on.
     */
    @Test
    void aPrefixFollowedThroughAKillHasEveryLineOfEveryObjectOnce() throws Exception {
        Path out = followedThroughAKill("table", FaultsProfile.ON ? 5 : 1);
        numbered.assertEachCommittedOnce(out, "seq < " + DAMAGED_FROM);
        List<List<Object>> damaged = DuckDb.query("SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM "
                + DuckDb.parquet(out) + " WHERE seq >= " + DAMAGED_FROM);
        assertEquals(List.of(linesBeforeDamage, linesBeforeDamage, DAMAGED_FROM, DAMAGED_FROM + linesBeforeDamage - 1),
                damaged.get(0).stream().map(v -> ((Number) v).longValue()).toList(), "rows, distinct, min, max");
        assertTrue(parq.stderr().contains("s3a://landing/table" + DAMAGED_KEY + ": truncated or corrupt gzip stream"),
                "the damaged object is not named in the log");
        assertDamagedObjectsNamedOnce("table", out);
    }

    /** The test above fails when the objects taken are not in the enumerator's checkpoints. */
    @Test
    @FaultsProfile
    void withoutTheObjectsInTheStateAKilledIngestReadsThemAgain() throws Exception {
        parq.mutation = Mutation.NO_OBJECT_STATE;
        assertThrows(AssertionError.class,
                () -> numbered.assertEachCommittedOnce(followedThroughAKill("mutated", FaultsProfile.ON ? 5 : 1)));
    }

    /**
     * The test above fails when a damaged object is only logged, not recorded in {@code _rejected/};
     * one kill shows it as well as five.
     */
    @Test
    @FaultsProfile
    void withoutARecordOfTheDamageTheDamagedObjectsAreNotNamedInTheOutput() throws Exception {
        parq.mutation = Mutation.NO_DAMAGE_RECORD;
        parq.rowsUnaffected = true;
        Path out = followedThroughAKill("unrecorded", 1);
        assertTrue(parq.stderr().contains("s3a://landing/unrecorded" + DAMAGED_KEY + ": truncated or corrupt gzip"),
                "the damaged object is not named in the log");
        AssertionError unnamed = assertThrows(AssertionError.class,
                () -> assertDamagedObjectsNamedOnce("unrecorded", out));
        assertTrue(unnamed.getMessage().startsWith("the objects named in _rejected/: [] ==> expected: <["),
                unnamed.getMessage());
    }

    /**
     * {@code _rejected/} of the downloaded output {@code out} of the prefix {@code bucket} holds one
     * record of each damaged object, read by DuckDB: its key, the decompressed offset from which its
     * lines are lost (none is, of the one with a broken header) and what is wrong, and no other.
     */
    private void assertDamagedObjectsNamedOnce(String bucket, Path out) throws Exception {
        List<List<Object>> records = new ArrayList<>();
        Path rejected = out.resolve("_rejected");
        if (Files.isDirectory(rejected)) {
            try (var files = Files.list(rejected)) {
                if (files.anyMatch(file -> file.getFileName().toString().startsWith("rejected"))) {
                    records = DuckDb.query("SELECT file, \"offset\", error, line FROM read_json("
                            + DuckDb.literal(rejected.resolve("rejected*.ndjson")) + ", format = 'newline_delimited',"
                            + " columns = {file: 'VARCHAR', \"offset\": 'BIGINT', error: 'VARCHAR', line: 'VARCHAR'})"
                            + " ORDER BY file");
                }
            }
        }
        String damagedObject = "s3a://landing/" + bucket + DAMAGED_KEY;
        String unreadableObject = "s3a://landing/" + bucket + UNREADABLE_KEY;
        assertEquals(List.of(damagedObject, unreadableObject), records.stream().map(r -> r.get(0)).toList(),
                "the objects named in _rejected/: " + records);
        assertEquals(bytesBeforeDamage, ((Number) records.get(0).get(1)).longValue(), "offset of " + records.get(0));
        String error = (String) records.get(0).get(2);
        assertTrue(error.startsWith("truncated or corrupt gzip stream: it cannot be read past byte "), error);
        assertEquals(Arrays.asList(unreadableObject, 0L, "truncated or corrupt gzip stream: it cannot be read past byte"
                + " 0 of the decompressed stream (Unsupported compression method)", null), records.get(1));
        assertNull(records.get(0).get(3), "a line of a damaged object");
    }

    /**
     * With {@code --key-order time} and day folders, a discovery lists only the folders from the
     * lowest key within the look-back: an object that lands later under an older day's folder is not
     * read, one that lands under the newest day is, and every other line once.
     */
    @Test
    void withKeysInTimeOrderAnObjectLandingUnderAnOlderFolderIsNotRead() throws Exception {
        assertEquals(0, lateLinesRead("days", "time", 0));
    }

    /** The test above fails when the prefix is listed whole: the late object is read. */
    @Test
    @FaultsProfile
    void listedWholeAnObjectLandingUnderAnOlderFolderIsRead() throws Exception {
        assertEquals(LATE_LINES, lateLinesRead("days-whole", "none", LATE_LINES));
    }

    /**
     * Two objects under each of {@code landing/BUCKET/2026-12-04/}, {@code -05/} and, some seconds
     * later, {@code -06/}; an ingest with a look-back of 2 s and {@code keyOrder} reads them; then an
     * object lands under {@code -04/} and one under {@code -06/}. Returns how many lines of the one
     * under {@code -04/} are committed, once the other's lines, every earlier line and {@code expected}
     * of them are, and a few seconds more have passed.
     */
    private long lateLinesRead(String bucket, String keyOrder, long expected) throws Exception {
        Path file = dir.resolve("upload");
        for (String day : List.of("2026-12-04", "2026-12-05", "", "2026-12-06")) {
            if (day.isEmpty()) {
                Thread.sleep(4000);
                continue;
            }
            for (int part = 0; part < 2; part++) {
                Files.writeString(file, numbered.next(100));
                s3.put("landing", bucket + "/" + day + "/part-" + part + ".ndjson", file);
            }
        }
        String[] ingest = {"ingest", "s3a://landing/" + bucket + "/", "-o", "s3a://" + bucket + "/out",
            "--state", "s3a://" + bucket + "/state", "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s",
            "--discover-interval", "500ms", "--compaction-interval", "1s", "-p", "1", "--look-back", "2s",
            "--key-order", keyOrder};
        Process running = parq.start(ingest);
        long late;
        try {
            parq.awaitRows(bucket, numbered.last(), running);
            StringBuilder text = new StringBuilder();
            for (long seq = LATE_FROM; seq < LATE_FROM + LATE_LINES; seq++) {
                text.append("{\"seq\":").append(seq).append(",\"msg\":\"late ").append(seq).append("\"}\n");
            }
            Files.writeString(file, text);
            s3.put("landing", bucket + "/2026-12-04/part-late.ndjson", file);
            Files.writeString(file, numbered.next(100));
            s3.put("landing", bucket + "/2026-12-06/part-2.ndjson", file);
            parq.awaitRows(bucket, numbered.last() + expected, running);
            // The late object, listed before the other, would be committed by now.
            Thread.sleep(4000);
            late = parq.committedRows(bucket) - numbered.last();
        } finally {
            parq.signal(running, "TERM", 0);
        }
        Path out = Files.createTempDirectory(dir, "out");
        s3.download(bucket, "out/", out);
        numbered.assertEachCommittedOnce(out, "seq < " + LATE_FROM);
        return late;
    }

    /**
     * Follows {@code s3a://landing/BUCKET/} into {@code bucket} while objects are uploaded; kills the
     * ingest with SIGKILL {@code kills} times and starts it again; stops it with
     * SIGTERM (a savepoint) once every line is committed, uploads more, and resumes it from the
     * savepoint until those are committed too. Returns the committed files, downloaded.
     */
    private Path followedThroughAKill(String bucket, int kills) throws Exception {
        long seed = System.nanoTime();
        System.out.println("followedThroughAKill seed " + seed);
        Random random = new Random(seed);
        Uploader uploader = new Uploader(bucket, random);
        uploader.upload(3);
        uploadDamaged(bucket);
        String[] ingest = {"ingest", "s3a://landing/" + bucket + "/", "-o", "s3a://" + bucket + "/out",
            "--state", "s3a://" + bucket + "/state",
            "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s", "--discover-interval", "500ms",
            "--compaction-interval", "1s", "-p", "2", "-D", "parq.source.split-size=1mb"};
        Process running = parq.start(ingest);
        parq.awaitRows(bucket, numbered.last() + linesBeforeDamage, running);
        // A key written again is a new object: its lines are read, the first object's stay.
        uploader.rewriteFirst();
        uploader.start();
        // Again and again, in the long suite, while objects keep coming.
        for (int kill = 0; kill < kills; kill++) {
            Thread.sleep(2000 + random.nextInt(FaultsProfile.ON ? 20_000 : 3000));
            parq.signal(running, "KILL", 137);
            running = parq.start(ingest);
        }
        Thread.sleep(3000);
        uploader.stop();
        try {
            parq.awaitRows(bucket, numbered.last() + linesBeforeDamage, running);
        } finally {
            parq.signal(running, "TERM", 0);
        }
        // Objects that land while it is stopped are read after it resumes from its savepoint.
        uploader.upload(3);
        running = parq.start(ingest);
        try {
            parq.awaitRows(bucket, numbered.last() + linesBeforeDamage, running);
        } finally {
            parq.signal(running, "TERM", 0);
        }
        assertTrue(parq.stderr().contains("parq: stopped with savepoint s3a://" + bucket + "/state/savepoints/"),
                parq.stderr());
        assertTrue(parq.stderr().contains(uploader.firstKey + " was written again"), "no word of the rewritten key");
        System.out.printf("%d objects (%d gzip, %d by multipart upload), %d lines%n", uploader.objects,
                uploader.gzip, uploader.multipart, numbered.last());
        assertTrue(uploader.multipart > 0 && uploader.gzip > 0, uploader.multipart + " multipart, " + uploader.gzip
                + " gzip objects");
        Path out = Files.createTempDirectory(dir, "out");
        s3.download(bucket, "out/", out);
        return out;
    }

    /**
     * Puts objects of numbered lines under {@code PREFIX/2026/12/06/HH/} of the landing bucket, as
     * several hosts' shippers do.
     */
    private final class Uploader {
        private final String prefix;
        private final Random random;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private CompletableFuture<Void> done;
        private int objects;
        private String firstKey;
        int multipart;
        int gzip;

        Uploader(String prefix, Random random) {
            this.prefix = prefix;
            this.random = random;
        }

        void start() {
            done = CompletableFuture.runAsync(() -> {
                try {
                    while (running.get()) {
                        upload(1);
                        Thread.sleep(50 + random.nextInt(250));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        }

        void stop() throws Exception {
            running.set(false);
            done.get(60, TimeUnit.SECONDS);
        }

        void rewriteFirst() throws Exception {
            Path file = dir.resolve("upload");
            Files.writeString(file, numbered.next(50));
            s3.put("landing", firstKey, file);
        }

        void upload(int count) throws Exception {
            for (int i = 0; i < count; i++) {
                int n = objects++;
                boolean large = n % 12 == 5;
                boolean compressed = !large && n % 3 == 1;
                String text = numbered.next(large ? 160_000 : 20 + random.nextInt(400));
                String key = String.format("%s/2026/12/06/%02d/part-host%d-%05d.ndjson%s", prefix, n / 10, n % 3, n,
                        compressed ? ".gz" : "");
                if (firstKey == null) {
                    firstKey = key;
                }
                Path file = dir.resolve("upload");
                Files.write(file, compressed ? gzipInTwoMembers(text) : text.getBytes(StandardCharsets.UTF_8));
                if (large) {
                    multipart++;
                    s3.putMultipart("landing", key, file, 5 << 20);
                } else {
                    gzip += compressed ? 1 : 0;
                    s3.put("landing", key, file);
                }
            }
        }
    }

    /**
     * Puts a gzip object cut in its middle, of lines numbered from {@link #DAMAGED_FROM}, and counts
     * the whole lines a gzip reader inflates from it before the damage; and one whose header is
     * broken, of lines from the same numbers.
     */
    private void uploadDamaged(String bucket) throws Exception {
        StringBuilder text = new StringBuilder();
        for (long seq = DAMAGED_FROM; seq < DAMAGED_FROM + 20_000; seq++) {
            text.append("{\"seq\":").append(seq).append(",\"msg\":\"damaged ").append(seq).append("\"}\n");
        }
        byte[] whole = gzipInTwoMembers(text.toString());
        byte[] cut = Arrays.copyOf(whole, whole.length * 3 / 4);
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(cut))) {
            in.transferTo(inflated);
            throw new AssertionError("the cut object inflates whole");
        } catch (EOFException damaged) {
            String before = inflated.toString(StandardCharsets.UTF_8);
            linesBeforeDamage = before.chars().filter(c -> c == '\n').count();
            bytesBeforeDamage = before.lastIndexOf('\n') + 1;
        }
        assertTrue(linesBeforeDamage > 0, "no line before the damage");
        Path file = dir.resolve("damaged");
        Files.write(file, cut);
        s3.put("landing", bucket + DAMAGED_KEY, file);
        // A gzip header naming a compression method other than deflate (8): nothing of it can be read.
        byte[] unreadable = gzipInTwoMembers(text.substring(0, 1000));
        unreadable[2] = 7;
        Files.write(file, unreadable);
        s3.put("landing", bucket + UNREADABLE_KEY, file);
    }

    private static byte[] gzipInTwoMembers(String text) throws IOException {
        int half = text.indexOf('\n', text.length() / 2) + 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String member : new String[] {text.substring(0, half), text.substring(half)}) {
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(one)) {
                gz.write(member.getBytes(StandardCharsets.UTF_8));
            }
            one.writeTo(out);
        }
        return out.toByteArray();
    }
}
