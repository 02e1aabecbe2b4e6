package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real S3-compatible server for the tests: S3Mock's exec jar (copied by the build to
 * target/s3mock/), started here and stopped at the end. Its HTTP port listens on all interfaces, so
 * it is started only inside a private network namespace, where loopback is the only interface: the
 * failsafe execution of the S3 tests runs their JVM through src/test/s3/netns/bin/java, and this class
 * refuses to start the server anywhere else.
 *
 * <p>Objects are read and written here with plain path-style HTTP requests, an S3 client of its own
 * that shares nothing with the S3A file system parq writes through (S3Mock checks no signatures).
 */
final class S3Server implements AutoCloseable {

    static final int PORT = 9090;
    static final String ENDPOINT = "http://127.0.0.1:" + PORT;
    private static final Pattern KEY = Pattern.compile("<Key>([^<]*)</Key>");
    private static final Pattern UPLOAD = Pattern.compile("<Upload>");

    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private S3Server(Process process) {
        this.process = process;
    }

    /** Starts the server with its objects under {@code root}, waits until it answers, and creates {@code buckets}. */
    static S3Server start(Path root, String... buckets) throws Exception {
        // Skipped by the other failsafe execution (where -Dit.test=S3IT lands too); its own one sets this.
        assumeTrue(Boolean.getBoolean("parq.test.netns"),
                "the S3 tests run in their own failsafe execution, inside a private network namespace");
        List<String> interfaces = NetworkInterface.networkInterfaces()
                .filter(i -> !isLoopback(i)).map(NetworkInterface::getName).toList();
        assertTrue(interfaces.isEmpty(), "S3Mock listens on all interfaces: start it only where loopback is the"
                + " only one (a private network namespace), not with " + interfaces);
        Path jar = Path.of(System.getProperty("parq.test.s3mock.jar", "target/s3mock/s3mock-exec.jar"));
        assertTrue(Files.isRegularFile(jar), "no S3Mock jar at " + jar);
        ProcessBuilder builder = new ProcessBuilder("java", "-Xmx256m", "-jar", jar.toString(),
                "--server.address=127.0.0.1", "--logging.level.root=WARN")
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("s3mock.log").toFile());
        builder.environment().put("COM_ADOBE_TESTING_S3MOCK_STORE_ROOT", root.resolve("store").toString());
        S3Server server = new S3Server(builder.start());
        server.awaitReady();
        for (String bucket : buckets) {
            server.createBucket(bucket);
        }
        return server;
    }

    private static boolean isLoopback(NetworkInterface networkInterface) {
        try {
            return networkInterface.isLoopback();
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertTrue(process.isAlive(), "S3Mock exited while starting");
            try {
                send(HttpRequest.newBuilder(URI.create(ENDPOINT + "/")).GET());
                return;
            } catch (ConnectException notYet) {
                Thread.sleep(250);
            }
        }
        throw new AssertionError("S3Mock did not answer within 90 s");
    }

    /** The {@code -D} flags that point parq at this server. */
    static List<String> flags() {
        return flags(ENDPOINT);
    }

    /** The {@code -D} flags that point parq at this server through {@code endpoint} (a proxy's). */
    static List<String> flags(String endpoint) {
        return List.of("-D", "s3.endpoint=" + endpoint, "-D", "s3.path.style.access=true",
                "-D", "s3.access-key=parq", "-D", "s3.secret-key=parq-secret");
    }

    void createBucket(String bucket) throws Exception {
        expectOk(send(HttpRequest.newBuilder(uri(bucket, "")).PUT(HttpRequest.BodyPublishers.noBody())), "create " + bucket);
    }

    void put(String bucket, String key, Path file) throws Exception {
        expectOk(send(HttpRequest.newBuilder(uri(bucket, key)).PUT(HttpRequest.BodyPublishers.ofFile(file))),
                "put " + key);
    }

    /**
     * Uploads {@code file} as {@code key} in parts of {@code partSize} bytes (the last one shorter),
     * as a shipper uploads a large object: begun, parts, completed.
     */
    void putMultipart(String bucket, String key, Path file, int partSize) throws Exception {
        HttpResponse<String> begun = send(HttpRequest.newBuilder(URI.create(uri(bucket, key) + "?uploads"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        expectOk(begun, "begin upload of " + key);
        Matcher id = Pattern.compile("<UploadId>([^<]*)</UploadId>").matcher(begun.body());
        assertTrue(id.find(), begun.body());
        byte[] bytes = Files.readAllBytes(file);
        StringBuilder parts = new StringBuilder("<CompleteMultipartUpload>");
        for (int part = 1, from = 0; from < bytes.length; part++, from += partSize) {
            int length = Math.min(partSize, bytes.length - from);
            HttpResponse<String> uploaded = send(HttpRequest.newBuilder(URI.create(uri(bucket, key) + "?partNumber="
                    + part + "&uploadId=" + id.group(1))).PUT(HttpRequest.BodyPublishers.ofByteArray(bytes, from, length)));
            expectOk(uploaded, "part " + part + " of " + key);
            String etag = uploaded.headers().firstValue("ETag").orElseThrow();
            parts.append("<Part><PartNumber>").append(part).append("</PartNumber><ETag>").append(etag)
                    .append("</ETag></Part>");
        }
        parts.append("</CompleteMultipartUpload>");
        expectOk(send(HttpRequest.newBuilder(URI.create(uri(bucket, key) + "?uploadId=" + id.group(1)))
                .POST(HttpRequest.BodyPublishers.ofString(parts.toString()))), "complete upload of " + key);
    }

    /** Downloads {@code key} into {@code file}. */
    void get(String bucket, String key, Path file) throws Exception {
        HttpResponse<Path> response = http.send(HttpRequest.newBuilder(uri(bucket, key)).GET().build(),
                HttpResponse.BodyHandlers.ofFile(file));
        assertTrue(response.statusCode() == 200, "get " + key + ": HTTP " + response.statusCode());
    }

    /** The keys of the objects under {@code prefix}, as a reader of the bucket sees them. */
    List<String> keys(String bucket, String prefix) throws Exception {
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            String query = "?list-type=2&prefix=" + prefix + (token == null ? "" : "&continuation-token=" + token);
            HttpResponse<String> response = list(URI.create(ENDPOINT + "/" + bucket + query));
            expectOk(response, "list " + prefix);
            Matcher key = KEY.matcher(response.body());
            while (key.find()) {
                keys.add(key.group(1));
            }
            Matcher next = Pattern.compile("<NextContinuationToken>([^<]*)<").matcher(response.body());
            token = next.find() ? next.group(1) : null;
        } while (token != null);
        return keys;
    }

    /** S3Mock now and then answers a listing with 500 while objects are written: asked again, then. */
    private HttpResponse<String> list(URI uri) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET());
        for (int retry = 0; retry < 5 && response.statusCode() >= 500; retry++) {
            Thread.sleep(200);
            response = send(HttpRequest.newBuilder(uri).GET());
        }
        return response;
    }

    /** How many multipart uploads of {@code bucket} are begun and neither completed nor aborted. */
    int pendingUploads(String bucket) throws Exception {
        HttpResponse<String> response = list(URI.create(ENDPOINT + "/" + bucket + "?uploads"));
        expectOk(response, "list uploads");
        Matcher upload = UPLOAD.matcher(response.body());
        int count = 0;
        while (upload.find()) {
            count++;
        }
        return count;
    }

    /** Downloads every object under {@code prefix} into {@code into}, keeping the key's path below the prefix. */
    void download(String bucket, String prefix, Path into) throws Exception {
        for (String key : keys(bucket, prefix)) {
            if (key.endsWith("/")) {
                continue;
            }
            Path file = into.resolve(key.substring(prefix.length()));
            Files.createDirectories(file.getParent());
            get(bucket, key, file);
        }
    }

    /**
     * Waits until a multipart upload is open in {@code bucket}, while {@code process} runs ({@code
     * stderr} says why it ended otherwise).
     */
    void awaitUpload(String bucket, Process process, Callable<String> stderr) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (pendingUploads(bucket) == 0) {
            assertTrue(process.isAlive(), "the run ended before it began an upload: " + stderr.call());
            assertTrue(System.nanoTime() < deadline, "no upload began within 120 s");
            Thread.sleep(50);
        }
    }

    /** The keys under {@code prefix} of {@code bucket} that a reader takes for output. */
    List<String> visible(String bucket, String prefix) throws Exception {
        return keys(bucket, prefix).stream()
                .filter(key -> key.endsWith(".parquet") || key.endsWith("_SUCCESS") || key.endsWith(".ndjson")).toList();
    }

    /** Downloads every object under {@code prefix} into a new directory in {@code parent}, and returns it. */
    Path downloadInto(Path parent, String bucket, String prefix) throws Exception {
        Path into = Files.createTempDirectory(parent, "download");
        download(bucket, prefix, into);
        return into;
    }

    private URI uri(String bucket, String key) {
        return URI.create(ENDPOINT + "/" + bucket + "/" + key);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void expectOk(HttpResponse<?> response, String what) {
        assertTrue(response.statusCode() / 100 == 2, what + ": HTTP " + response.statusCode() + " " + response.body());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
