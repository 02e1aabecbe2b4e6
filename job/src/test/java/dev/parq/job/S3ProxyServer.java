package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An S3 server that checks the signature of every request: s3proxy (copied by the build to
 * target/s3proxy/), started here and stopped at the end, with one key pair and its objects as plain
 * files under {@code root/store} (its jclouds filesystem backend), where a bucket is a directory made
 * before it starts. It listens on 127.0.0.1 only, the address of its endpoint setting.
 *
 * <p>Objects are uploaded with requests signed here (AWS signature version 2), so that s3proxy records
 * their ETag, which S3A asks for when it reads; what parq wrote is read from the files themselves.
 */
final class S3ProxyServer implements AutoCloseable {

    static final int PORT = 9091;
    static final String ENDPOINT = "http://127.0.0.1:" + PORT;
    static final String ACCESS_KEY = "parq";
    static final String SECRET_KEY = "parq-secret";
    private static final String CONTENT_TYPE = "application/octet-stream";

    private final Process process;
    private final Path store;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private S3ProxyServer(Process process, Path store) {
        this.process = process;
        this.store = store;
    }

    /** Starts the server with {@code buckets} under {@code root}, and waits until it answers. */
    static S3ProxyServer start(Path root, String... buckets) throws Exception {
        // Skipped by the other failsafe execution (where -Dit.test lands too); its own one sets this.
        assumeTrue(Boolean.getBoolean("parq.test.netns"), "the S3 tests run in their own failsafe execution");
        Path jar = Path.of(System.getProperty("parq.test.s3proxy.jar", "target/s3proxy/s3proxy.jar"));
        assertTrue(Files.isRegularFile(jar), "no s3proxy jar at " + jar);
        Path store = Files.createDirectories(root.resolve("store"));
        for (String bucket : buckets) {
            Files.createDirectories(store.resolve(bucket));
        }
        Path properties = Files.writeString(root.resolve("s3proxy.properties"), String.join("\n",
                "s3proxy.endpoint=" + ENDPOINT,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + store) + "\n");
        Process process = new ProcessBuilder("java", "-Xmx256m", "-jar", jar.toString(),
                "--properties", properties.toString())
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("s3proxy.log").toFile())
                .start();
        S3ProxyServer server = new S3ProxyServer(process, store);
        server.awaitReady();
        return server;
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            assertTrue(process.isAlive(), "s3proxy exited while starting");
            try {
                http.send(HttpRequest.newBuilder(URI.create(ENDPOINT + "/")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (ConnectException notYet) {
                Thread.sleep(250);
            }
        }
        throw new AssertionError("s3proxy did not answer within 60 s");
    }

    /** The {@code -D} flags that point parq at this server with {@code accessKey} and {@code secretKey}. */
    static List<String> flags(String accessKey, String secretKey) {
        List<String> flags = new ArrayList<>(endpointFlags());
        flags.addAll(List.of("-D", "s3.access-key=" + accessKey, "-D", "s3.secret-key=" + secretKey));
        return flags;
    }

    /** The server's endpoint without any credentials: those come from elsewhere. */
    static List<String> endpointFlags() {
        return List.of("-D", "s3.endpoint=" + ENDPOINT, "-D", "s3.path.style.access=true");
    }

    /** Uploads {@code file} as {@code key}, signed with the server's key pair. */
    void put(String bucket, String key, Path file) throws Exception {
        String resource = "/" + bucket + "/" + key;
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String stringToSign = "PUT\n\n" + CONTENT_TYPE + "\n\nx-amz-date:" + date + "\n" + resource;
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(ENDPOINT + resource))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", CONTENT_TYPE)
                .header("x-amz-date", date)
                .header("Authorization", "AWS " + ACCESS_KEY + ":" + sign(stringToSign))
                .PUT(HttpRequest.BodyPublishers.ofFile(file))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() == 200, "put " + key + ": HTTP " + response.statusCode() + " " + response.body());
    }

    private static String sign(String stringToSign) throws Exception {
        Mac hmac = Mac.getInstance("HmacSHA1");
        hmac.init(new SecretKeySpec(SECRET_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(hmac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    /** The directory that holds the objects under {@code prefix} of {@code bucket}. */
    Path directory(String bucket, String prefix) {
        return store.resolve(bucket).resolve(prefix);
    }

    /** The names of the files under {@code prefix} of {@code bucket}, none if there is no such prefix. */
    List<String> files(String bucket, String prefix) throws IOException {
        Path directory = directory(bucket, prefix);
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).map(f -> directory.relativize(f).toString()).toList();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
