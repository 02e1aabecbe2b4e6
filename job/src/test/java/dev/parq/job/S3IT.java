package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.mutation.Mutation;
import dev.parq.testing.DuckDb;

/**
 * convert and ingest against a real S3 server (S3Mock, in the tests' private network namespace):
 * local to S3, S3 to S3 and S3 to local give the rows of the same local conversion, value by value,
 * read back through a client of the tests' own; a conversion killed while it uploads leaves nothing
 * visible; an ingest to S3 with its state on S3, killed and started again, commits every line once;
 * a missing object, bucket, endpoint or credentials is a one-line error, soon.
 */
class S3IT {

    /** An ingest's compaction arguments: at each checkpoint (every second here), or every minute (the default). */
    private static final List<String> COMPACTION_AT_EACH_CHECKPOINT = List.of("--compaction-interval", "1s");
    private static final List<String> DEFAULT_COMPACTION = List.of();

    private static S3Server s3;
    @TempDir
    static Path serverRoot;
    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();
    private S3Ingests parq;

    @BeforeAll
    static void startServer() throws Exception {
        s3 = S3Server.start(serverRoot, "logs", "lake", "killed", "killed-early", "failed", "stopped", "unaborted",
                "ingest", "mutated", "throttled", "unretried", "reset");
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

    @Test
    void localToS3HoldsTheRowsOfTheLocalConversionAndNothingHidden() throws Exception {
        Path input = dir.resolve("people.ndjson");
        People.write(input, 3 << 20);
        Files.writeString(input, "{\"id\": \"not a number\"}\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        Path expected = convertLocally(input);

        Cli.Result result = convert(input.toString(), "-o", "s3a://lake/people", "--on-error", "reject");
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().contains("s3a://lake/people/_SUCCESS"), result.out());

        List<String> keys = s3.keys("lake", "people/");
        assertTrue(keys.contains("people/_SUCCESS"), keys.toString());
        for (String key : keys) {
            String name = key.substring(key.lastIndexOf('/') + 1);
            assertTrue(key.equals("people/_SUCCESS") || key.equals("people/") || key.equals("people/_rejected/")
                    || name.endsWith(".parquet") && !name.startsWith(".")
                    || key.startsWith("people/_rejected/rejected") && name.endsWith(".ndjson"),
                    "an object a reader would not expect: " + key);
        }
        assertEquals(0, s3.pendingUploads("lake"), "uploads left open");
        Path back = download("lake", "people/");
        assertSameRows(expected, back);
        assertEquals(1, Files.readAllLines(onlyFile(back.resolve("_rejected"))).size());
        assertTrue(Files.readString(back.resolve("_SUCCESS")).contains("\"rejected\" : 1"));
    }

    @Test
    void s3ToS3AndS3ToLocalExpandGlobsAndPrefixesByListing() throws Exception {
        Path a = dir.resolve("a.ndjson");
        Path b = dir.resolve("b.ndjson");
        long rowsOfA = People.write(a, 1 << 20);
        long rowsOfB = People.write(b, 2 << 20);
        s3.put("logs", "2024/01/a.ndjson", a);
        s3.put("logs", "2024/01/b.ndjson", b);
        s3.put("logs", "2024/01/_hidden.ndjson", a);
        s3.put("logs", "2024/01/notes.txt", a);
        s3.put("logs", "2024/01/deeper/c.ndjson", a);
        Path expected = convertLocally(a.toString(), b.toString());

        Cli.Result glob = convert("s3a://logs/2024/01/*.ndjson", "-o", "s3a://lake/from-s3");
        assertEquals(0, glob.exitCode(), glob.err());
        Path back = download("lake", "from-s3/");
        assertSameRows(expected, back);
        String manifest = Files.readString(back.resolve("_SUCCESS"));
        assertTrue(manifest.contains("s3a://logs/2024/01/a.ndjson") && manifest.contains("s3a://logs/2024/01/b.ndjson")
                && !manifest.contains("_hidden") && !manifest.contains("deeper"), manifest);

        // A prefix is walked whole, as a local directory is: deeper/ and notes.txt too, not _hidden.
        Path local = dir.resolve("local-out");
        Cli.Result prefix = convert("s3a://logs/2024/01/", "-o", local.toString());
        assertEquals(0, prefix.exitCode(), prefix.err());
        assertEquals(3 * rowsOfA + rowsOfB, DuckDb.count(DuckDb.parquet(local)));
    }

    @Test
    void aMissingObjectIsAUsageErrorAndAnUnknownSchemeToo() throws Exception {
        Cli.Result missing = convert("s3a://logs/no-such.ndjson", "-o", dir.resolve("out").toString());
        assertEquals(2, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("input not found: s3a://logs/no-such.ndjson"), missing.err());
        Cli.Result scheme = Cli.run("convert", "gopher://x/y.ndjson", "-o", dir.resolve("out").toString());
        assertEquals(2, scheme.exitCode(), scheme.err());
        assertTrue(scheme.err().contains("no file system for the scheme 'gopher'"), scheme.err());
    }

    @Test
    void aMissingBucketADeadEndpointAndMissingCredentialsFailInOneLineWithinAMinute() throws Exception {
        Path input = dir.resolve("in.ndjson");
        People.write(input, 10_000);
        List<String> missingBucket = new ArrayList<>(List.of("convert", input.toString(), "-o", "s3a://no-bucket/out"));
        missingBucket.addAll(S3Server.flags());
        assertFailsInOneLine(missingBucket, "bucket does not exist");

        List<String> deadEndpoint = new ArrayList<>(List.of("convert", input.toString(), "-o", "s3a://lake/dead",
                "-D", "s3.endpoint=http://127.0.0.1:1", "-D", "s3.path.style.access=true",
                "-D", "s3.access-key=parq", "-D", "s3.secret-key=parq-secret"));
        assertFailsInOneLine(deadEndpoint, "127.0.0.1:1");

        List<String> noCredentials = new ArrayList<>(List.of("convert", input.toString(), "-o", "s3a://lake/nokeys",
                "-D", "s3.endpoint=" + S3Server.ENDPOINT, "-D", "s3.path.style.access=true"));
        assertFailsInOneLine(noCredentials, "credentials");
    }

    @Test
    void aConversionKilledWhileItUploadsLeavesNothingVisible() throws Exception {
        assertKilledConversionLeavesNothingVisible("killed");
    }

    /** The test above fails when the manifest is written before the job has committed its files. */
    @Test
    @FaultsProfile
    void withTheManifestWrittenEarlyAKilledConversionLeavesItVisible() throws Exception {
        parq.mutation = Mutation.EARLY_MANIFEST;
        assertThrows(AssertionError.class, () -> assertKilledConversionLeavesNothingVisible("killed-early"));
    }

    private void assertKilledConversionLeavesNothingVisible(String bucket) throws Exception {
        Process convert = uploading(bucket);
        convert.destroyForcibly();
        assertTrue(convert.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, convert.exitValue(), "killed with SIGKILL, not finished: " + parq.stderr());
        assertEquals(List.of(), visible(bucket), "objects of the killed conversion a reader sees");
    }

    @Test
    void aConversionThatFailsWhileItUploadsAbortsItsUploads() throws Exception {
        assertFailedConversionLeavesNoUploads("failed");
    }

    /** The test above fails when a failed conversion leaves its uploads to the bucket's lifecycle. */
    @Test
    @FaultsProfile
    void withoutTheAbortAFailedConversionLeavesItsUploadsOpen() throws Exception {
        parq.mutation = Mutation.NO_UPLOAD_ABORT;
        assertThrows(AssertionError.class, () -> assertFailedConversionLeavesNoUploads("unaborted"));
    }

    @Test
    void aConversionStoppedWhileItUploadsAbortsItsUploads() throws Exception {
        Process convert = uploading("stopped");
        parq.signal(convert, "TERM", 143);
        assertTrue(parq.stderr().contains("pending uploads aborted"), parq.stderr());
        assertEquals(List.of(), visible("stopped"), "objects of the stopped conversion a reader sees");
        assertEquals(0, s3.pendingUploads("stopped"), "uploads left open by the stopped conversion");
    }

    /** A conversion of 48 MiB to {@code s3a://BUCKET/out}, started and seen uploading its first part. */
    private Process uploading(String bucket) throws Exception {
        Path input = dir.resolve("big.ndjson");
        People.write(input, 48 << 20);
        Process convert = parq.start("convert", input.toString(), "-o", "s3a://" + bucket + "/out", "-p", "1",
                "--schema", People.SCHEMA);
        awaitUpload(bucket, convert);
        return convert;
    }

    /**
     * A conversion of 48 MiB whose last line is bad fails there (the default is {@code --on-error
     * fail}), long after its first upload began: nothing of it is visible, and no upload is open.
     */
    private void assertFailedConversionLeavesNoUploads(String bucket) throws Exception {
        Path input = dir.resolve("bad-at-the-end.ndjson");
        People.write(input, 48 << 20);
        Files.writeString(input, "{\"id\": oops}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Process convert = parq.start("convert", input.toString(), "-o", "s3a://" + bucket + "/out", "-p", "1",
                "--schema", People.SCHEMA);
        assertTrue(convert.waitFor(NumberedLines.WAIT_SECONDS, TimeUnit.SECONDS), "the conversion did not end");
        assertEquals(1, convert.exitValue(), parq.stderr());
        assertTrue(parq.stderr().contains("bad line"), parq.stderr());
        assertEquals(List.of(), visible(bucket), "objects of the failed conversion a reader sees");
        assertEquals(0, s3.pendingUploads(bucket), "uploads left open by the failed conversion");
    }

    /**
     * A store that answers a quarter of the requests with {@code 503 Slow Down} and resets the
     * connection of a part upload half way through its body: S3A tries again, and the conversion
     * commits every line once.
     */
    @Test
    void aConversionRidesOutThrottlingAndAConnectionResetMidUpload() throws Exception {
        assertConversionRidesOutThrottlingAndAReset("throttled");
    }

    /** The test above fails when S3A gives the store no second try. */
    @Test
    @FaultsProfile
    void withoutRetriesAConversionFailsOnAThrottledRequest() throws Exception {
        parq.mutation = Mutation.NO_STORE_RETRIES;
        assertThrows(AssertionError.class, () -> assertConversionRidesOutThrottlingAndAReset("unretried"));
    }

    private void assertConversionRidesOutThrottlingAndAReset(String bucket) throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines.append(input, numbered.next(200_000));
        try (FaultyStore store = FaultyStore.inFrontOf(S3Server.PORT)) {
            parq.endpoint = store.endpoint();
            store.slowDown(0.25);
            store.resetPartUploads(1);
            Process convert = parq.start("convert", input.toString(), "-o", "s3a://" + bucket + "/out",
                    "--schema", NumberedLines.SCHEMA);
            assertTrue(convert.waitFor(NumberedLines.WAIT_SECONDS, TimeUnit.SECONDS), "the conversion did not end");
            assertEquals(0, convert.exitValue(), parq.stderr() + store.summary());
            assertEquals(1, store.resets(), store.summary());
            assertTrue(store.slowDowns() > 0, store.summary());
        }
        numbered.assertEachCommittedOnce(download(bucket, "out/"));
        assertEquals(0, s3.pendingUploads(bucket), "uploads left open");
    }

    /**
     * A store that resets every part upload: the conversion gives up within its bound, in one line
     * that names the object and what failed, with its upload aborted and nothing visible. In the long
     * suite: it takes 30 s, and the case above is the every-build one of the failing store.
     */
    @Test
    @FaultsProfile
    void aConversionWhosePartUploadsAreAllResetFailsInOneLineAndAbortsItsUpload() throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines.append(input, numbered.next(50_000));
        try (FaultyStore store = FaultyStore.inFrontOf(S3Server.PORT)) {
            parq.endpoint = store.endpoint();
            store.resetPartUploads(Integer.MAX_VALUE);
            StoreFailure failure = StoreFailure.of(parq, "convert", input.toString(), "-o", "s3a://reset/out",
                    "--schema", NumberedLines.SCHEMA);
            failure.assertOneLineNaming("s3a://reset/out", "reset");
            assertTrue(store.resets() > 1, "not tried again: " + store.summary());
            System.out.println("a conversion whose part uploads are all reset gave up after " + failure.seconds()
                    + " s; " + store.summary());
        }
        assertEquals(List.of(), visible("reset"), "objects of the failed conversion a reader sees");
        assertEquals(0, s3.pendingUploads("reset"), "uploads left open by the failed conversion");
    }

    private void awaitUpload(String bucket, Process convert) throws Exception {
        s3.awaitUpload(bucket, convert, parq::stderr);
    }

    /** The keys under {@code out/} of {@code bucket} that a reader takes for output. */
    private List<String> visible(String bucket) throws Exception {
        return s3.visible(bucket, "out/");
    }

    /**
     * Compacted at each checkpoint, rows are visible seconds after they are read. The long suite runs
     * the default compaction interval (a minute), as a user does: the kill then finds many
     * checkpoints' part files on S3 waiting for their compaction, and each wait for rows takes that
     * minute.
     */
    @Test
    void anIngestToS3KilledAndStartedAgainCommitsEveryLineOnce() throws Exception {
        numbered.assertEachCommittedOnce(ingestKilledWhileWriting("ingest",
                FaultsProfile.ON ? DEFAULT_COMPACTION : COMPACTION_AT_EACH_CHECKPOINT));
    }

    /**
     * The test above fails when the parser keeps rows past a checkpoint barrier. Compacted at each
     * checkpoint, so that a sound build commits every row within the shorter waits of a mutated run:
     * with the default interval (a minute) not even its first rows are visible by then.
     */
    @Test
    @FaultsProfile
    void withoutTheBarrierFlushAnIngestToS3LosesRows() throws Exception {
        parq.mutation = Mutation.NO_BARRIER_FLUSH;
        assertThrows(AssertionError.class, () -> numbered.assertEachCommittedOnce(
                ingestKilledWhileWriting("mutated", COMPACTION_AT_EACH_CHECKPOINT)));
    }

    /**
     * Runs ingest into {@code bucket}, its state there too, compacting as {@code compaction} says,
     * while lines are appended and the log is rotated; kills it with SIGKILL once, starts it again,
     * and stops it with SIGTERM (a savepoint, on S3) once every line is committed or the wait has
     * run out. Returns the committed files, downloaded.
     */
    private Path ingestKilledWhileWriting(String bucket, List<String> compaction) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        long seed = System.nanoTime();
        System.out.println("ingestKilledWhileWriting seed " + seed);
        Random random = new Random(seed);
        NumberedLines.append(log, numbered.next(100));
        List<String> arguments = new ArrayList<>(List.of("ingest", logs.resolve("app.log*").toString(),
                "-o", "s3a://" + bucket + "/out", "--state", "s3a://" + bucket + "/state", "--schema", NumberedLines.SCHEMA,
                "--checkpoint-interval", "1s", "--discover-interval", "200ms", "-p", "2"));
        arguments.addAll(compaction);
        String[] ingest = arguments.toArray(String[]::new);
        Process running = parq.start(ingest);
        parq.awaitRows(bucket, numbered.last(), running);
        NumberedLines.RotatingWriter writer = numbered.writeRotating(log, 700, random);
        Thread.sleep(1500 + random.nextInt(3000));
        parq.signal(running, "KILL", 137);
        running = parq.start(ingest);
        Thread.sleep(2000);
        writer.stop();
        try {
            parq.awaitRows(bucket, numbered.last(), running);
        } finally {
            parq.signal(running, "TERM", 0);
        }
        assertTrue(s3.keys(bucket, "state/savepoints/").stream().anyMatch(key -> key.endsWith("/_metadata")),
                "no savepoint on S3");
        return download(bucket, "out/");
    }

    private void assertFailsInOneLine(List<String> args, String expected) throws Exception {
        ParqJar.assertFailsInOneLine(Files.createTempDirectory(dir, "run"), args, expected);
    }

    private Cli.Result convert(String... args) {
        List<String> all = new ArrayList<>(List.of("convert"));
        all.addAll(List.of(args));
        all.addAll(S3Server.flags());
        all.addAll(List.of("--schema", People.SCHEMA));
        return Cli.run(all.toArray(String[]::new));
    }

    private Path convertLocally(Path input) throws Exception {
        return convertLocally(input.toString());
    }

    private Path convertLocally(String... inputs) throws Exception {
        Path output = Files.createTempDirectory(dir, "expected");
        List<String> args = new ArrayList<>(List.of("convert"));
        args.addAll(List.of(inputs));
        args.addAll(List.of("-o", output.toString(), "--overwrite", "--on-error", "reject", "--schema", People.SCHEMA));
        Cli.Result result = Cli.run(args.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.err());
        return output;
    }

    private Path download(String bucket, String prefix) throws Exception {
        return s3.downloadInto(dir, bucket, prefix);
    }

    private static Path onlyFile(Path directory) throws Exception {
        try (var files = Files.list(directory)) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), all.toString());
            return all.get(0);
        }
    }

    private static void assertSameRows(Path expected, Path actual) throws Exception {
        String columns = "SELECT id, name, score, tags FROM ";
        List<List<Object>> want = DuckDb.query(columns + DuckDb.parquet(expected) + " ORDER BY id, name");
        List<List<Object>> got = DuckDb.query(columns + DuckDb.parquet(actual) + " ORDER BY id, name");
        assertFalse(want.isEmpty());
        assertEquals(want.size(), got.size());
        for (int i = 0; i < want.size(); i++) {
            assertEquals(String.valueOf(want.get(i)), String.valueOf(got.get(i)), "row " + i);
        }
    }
}
