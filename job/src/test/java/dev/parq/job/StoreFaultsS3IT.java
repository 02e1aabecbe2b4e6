package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * The long versions of the failing store's tests ({@code S3IT} has the short ones): parq against the
 * S3 test server through {@link FaultyStore}, a proxy that makes the store go away for a while,
 * throttle, reset connections in the middle of a part upload and leave requests unanswered.
 * {@code convert} rides out what is short and gives up within its bound on what is not, in one line,
 * leaving nothing visible; {@code ingest} rides out a store gone for 40 s and commits every line
 * once. What each took is printed, for the README's figures.
 */
@FaultsProfile
class StoreFaultsS3IT {

    private static S3Server s3;
    @TempDir
    static Path serverRoot;
    @TempDir
    Path dir;

    private final NumberedLines numbered = new NumberedLines();
    private S3Ingests parq;
    private FaultyStore store;

    @BeforeAll
    static void startServer() throws Exception {
        s3 = S3Server.start(serverRoot, "gone", "flaky", "unretried", "hung", "ingest", "ingest-flaky",
                "ingest-unretried");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    @BeforeEach
    void processes() throws Exception {
        parq = new S3Ingests(s3, dir);
        store = FaultyStore.inFrontOf(S3Server.PORT);
        parq.endpoint = store.endpoint();
    }

    @AfterEach
    void killLeftovers() throws Exception {
        parq.killLeftovers();
        store.close();
    }

    /**
     * The store goes away for 40 s once the conversion has begun its upload: the conversion gives up
     * within its bound, in one line naming the object, and nothing of it is visible; its upload is
     * aborted once the store is back, or named as left open.
     */
    @Test
    void aConversionWhoseStoreIsGoneGivesUpWithinItsBoundAndLeavesNothingVisible() throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines.append(input, numbered.next(1_500_000));
        long started = System.nanoTime();
        Process convert = parq.start("convert", input.toString(), "-o", "s3a://gone/out", "-p", "1",
                "--schema", NumberedLines.SCHEMA);
        s3.awaitUpload("gone", convert, parq::stderr);
        store.goAway();
        long gone = System.nanoTime();
        assertTrue(convert.waitFor(StoreFailure.BOUND_SECONDS, TimeUnit.SECONDS), "did not give up: " + parq.stderr());
        double gaveUpAfter = (System.nanoTime() - gone) / 1e9;
        StoreFailure failure = new StoreFailure(convert.exitValue(), (System.nanoTime() - started) / 1e9, parq.stderr());
        System.out.println("a conversion whose store went away gave up " + gaveUpAfter + " s later: " + failure.stderr());
        failure.assertOneLineNaming("s3a://gone/out");
        Thread.sleep(Math.max(0, 40_000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - gone)));
        store.comeBack();
        assertEquals(List.of(), visible("gone"), "objects of the failed conversion a reader sees");
    }

    /**
     * S3 to S3 through a store that throttles a third of the requests and the first try of every
     * read, resets three part uploads and leaves one read unanswered: the conversion waits the read
     * out, and commits every line once.
     */
    @Test
    void aConversionRidesOutManySlowDownsResetsAndAHungRead() throws Exception {
        assertConversionRidesOutManySlowDownsResetsAndAHungRead("flaky");
    }

    /**
     * The test above fails when the AWS SDK makes no tries of its own and a failed read is not made
     * again on a new stream: the GET of a split's next window, which S3A makes once, fails on its
     * first {@code 503 Slow Down}.
     */
    @Test
    void withoutTheSdksRetriesOrAReadAgainAConversionFailsOnAThrottledRead() throws Exception {
        withoutTheSdksRetriesOrAReadAgain();
        assertThrows(AssertionError.class, () -> assertConversionRidesOutManySlowDownsResetsAndAHungRead("unretried"));
    }

    /** Both defences of a read of an object opened again after a seek taken away. */
    private void withoutTheSdksRetriesOrAReadAgain() {
        parq.mutation = Mutation.NO_READ_AGAIN;
        parq.flags.addAll(List.of("-D", "fs.s3a.attempts.maximum=0"));
    }

    private void assertConversionRidesOutManySlowDownsResetsAndAHungRead(String bucket) throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines.append(input, numbered.next(600_000));
        s3.put(bucket, "in/numbered.ndjson", input);
        store.slowDown(0.3);
        store.slowDownFirstTries("GET");
        store.resetPartUploads(3);
        store.hang("GET", 1);
        long started = System.nanoTime();
        Process convert = parq.start("convert", "s3a://" + bucket + "/in/", "-o", "s3a://" + bucket + "/out",
                "--schema", NumberedLines.SCHEMA);
        assertTrue(convert.waitFor(3 * StoreFailure.BOUND_SECONDS, TimeUnit.SECONDS), "did not end: " + parq.stderr());
        assertEquals(0, convert.exitValue(), parq.stderr() + store.summary());
        System.out.println("a conversion through a flaky store took " + (System.nanoTime() - started) / 1e9 + " s; "
                + store.summary());
        assertEquals(1, store.hangs(), store.summary());
        assertEquals(3, store.resets(), store.summary());
        numbered.assertEachCommittedOnce(download(bucket, "out/"));
        assertEquals(0, s3.pendingUploads(bucket), "uploads left open");
    }

    /** Every part upload taken and never answered: the conversion gives up within its bound, in one line. */
    @Test
    void aConversionWhoseUploadsAllHangGivesUpWithinItsBound() throws Exception {
        Path input = dir.resolve("numbered.ndjson");
        NumberedLines.append(input, numbered.next(50_000));
        store.hang("PUT", Integer.MAX_VALUE);
        StoreFailure failure = StoreFailure.of(parq, "convert", input.toString(), "-o", "s3a://hung/out",
                "--schema", NumberedLines.SCHEMA);
        System.out.println("a conversion whose uploads all hang gave up after " + failure.seconds() + " s: "
                + failure.stderr() + store.summary());
        failure.assertOneLineNaming("s3a://hung/out");
        store.heal();
        assertEquals(List.of(), visible("hung"), "objects of the failed conversion a reader sees");
    }

    /**
     * An ingest into the store, its state there too, while a writer appends and rotates: the store
     * goes away for 40 s and comes back; the ingest rides it out, and every line is committed once.
     */
    @Test
    void anIngestRidesOutAStoreGoneForFortySeconds() throws Exception {
        Process ingest = startIngest("ingest");
        NumberedLines.RotatingWriter writer = numbered.writeRotating(dir.resolve("logs").resolve("app.log"), 700,
                new Random(7));
        Thread.sleep(3000);
        store.goAway();
        Thread.sleep(40_000);
        assertTrue(ingest.isAlive(), "the ingest stopped while the store was gone: " + parq.stderr());
        store.comeBack();
        long back = System.nanoTime();
        Thread.sleep(2000);
        writer.stop();
        parq.awaitRows("ingest", numbered.last(), ingest);
        System.out.println("an ingest had every line committed " + (System.nanoTime() - back) / 1e9
                + " s after its store came back from 40 s away; " + store.summary());
        parq.signal(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(download("ingest", "out/"));
    }

    /**
     * The same ingest through a store that throttles a third of the requests and the first try of
     * every read, and resets five part uploads: each compaction reads part files back, a footer and
     * then its row groups.
     */
    @Test
    void anIngestRidesOutSlowDownsAndResets() throws Exception {
        assertIngestRidesOutSlowDownsAndResets("ingest-flaky", 8);
    }

    /**
     * The test above fails when the AWS SDK makes no tries of its own and a failed read is not made
     * again on a new stream: the GET of a part file's row groups after its footer, which S3A makes
     * once, fails on its first {@code 503 Slow Down}.
     */
    @Test
    void withoutTheSdksRetriesOrAReadAgainAnIngestStopsOnAThrottledRead() throws Exception {
        withoutTheSdksRetriesOrAReadAgain();
        assertThrows(AssertionError.class, () -> assertIngestRidesOutSlowDownsAndResets("ingest-unretried", 9));
    }

    private void assertIngestRidesOutSlowDownsAndResets(String bucket, long seed) throws Exception {
        Process ingest = startIngest(bucket);
        NumberedLines.RotatingWriter writer = numbered.writeRotating(dir.resolve("logs").resolve("app.log"), 700,
                new Random(seed));
        store.slowDown(0.3);
        store.slowDownFirstTries("GET");
        store.resetPartUploads(5);
        Thread.sleep(20_000);
        writer.stop();
        parq.awaitRows(bucket, numbered.last(), ingest);
        System.out.println("an ingest through a flaky store: " + store.summary());
        assertTrue(store.slowDowns() > 0 && store.resets() > 0, store.summary());
        store.heal();
        parq.signal(ingest, "TERM", 0);
        numbered.assertEachCommittedOnce(download(bucket, "out/"));
    }

    /** Starts an ingest of local logs into {@code bucket}, its state there too, and waits for its first rows. */
    private Process startIngest(String bucket) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        NumberedLines.append(logs.resolve("app.log"), numbered.next(100));
        Process ingest = parq.start("ingest", logs.resolve("app.log*").toString(), "-o", "s3a://" + bucket + "/out",
                "--state", "s3a://" + bucket + "/state", "--schema", NumberedLines.SCHEMA, "--checkpoint-interval", "1s",
                "--compaction-interval", "1s", "--discover-interval", "200ms", "-p", "2");
        parq.awaitRows(bucket, numbered.last(), ingest);
        return ingest;
    }

    private List<String> visible(String bucket) throws Exception {
        return s3.visible(bucket, "out/");
    }

    private Path download(String bucket, String prefix) throws Exception {
        return s3.downloadInto(dir, bucket, prefix);
    }
}
