package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.testing.DuckDb;

/**
 * Wrong credentials against an S3 server that checks them: s3proxy ({@link S3ProxyServer}), since
 * S3Mock, which {@link S3IT} runs against, checks no signatures and takes any key. The right key pair
 * writes and reads, which shows that the server and its authorization are set up, so that a refusal
 * is the keys' doing; a wrong secret key or an unknown access key is a one-line "access denied" (exit 1)
 * within a minute, for an output and for an input alike, never "not found".
 */
class S3CredentialsS3IT {

    private static final String BUCKET = "lake";

    private static S3ProxyServer s3;
    private static long inputRows;
    @TempDir
    static Path serverRoot;
    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        s3 = S3ProxyServer.start(serverRoot, BUCKET);
        Path input = serverRoot.resolve("in.ndjson");
        inputRows = People.write(input, 64 << 10);
        s3.put(BUCKET, "in.ndjson", input);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void theRightKeysWriteAnOutputAndReadAnInput() throws Exception {
        Path input = dir.resolve("people.ndjson");
        long rows = People.write(input, 64 << 10);
        Cli.Result written = convert(S3ProxyServer.SECRET_KEY, input.toString(), "-o", "s3a://lake/out");
        assertEquals(0, written.exitCode(), written.err());
        List<String> files = s3.files(BUCKET, "out");
        assertTrue(files.contains("_SUCCESS") && files.stream().anyMatch(f -> f.endsWith(".parquet")), files.toString());
        assertEquals(rows, DuckDb.count(DuckDb.parquet(s3.directory(BUCKET, "out"))));

        Path local = dir.resolve("from-s3");
        Cli.Result read = convert(S3ProxyServer.SECRET_KEY, "s3a://lake/in.ndjson", "-o", local.toString());
        assertEquals(0, read.exitCode(), read.err());
        assertEquals(inputRows, DuckDb.count(DuckDb.parquet(local)));
    }

    /**
     * Without {@code s3.access-key}, the keys come from the AWS variables, else from the shared
     * credentials file ({@code ~/.aws/credentials} or {@code AWS_CREDENTIAL_PROFILES_FILE}; its default
     * profile, or {@code AWS_PROFILE}'s), as an AWS CLI user has them.
     */
    @Test
    void theKeysComeFromTheAwsVariablesOrTheCredentialsFileWhenNotConfigured() throws Exception {
        Map<String, String> none = new HashMap<>();
        for (String name : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                "AWS_CREDENTIAL_PROFILES_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE")) {
            none.put(name, "");
        }
        Path home = Files.createDirectories(dir.resolve("home"));
        // The SDK finds ~/.aws by the JVM's user.home, which $HOME does not set.
        none.put("JAVA_TOOL_OPTIONS", "-Duser.home=" + home);

        Map<String, String> variables = new HashMap<>(none);
        variables.put("AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY);
        variables.put("AWS_SECRET_ACCESS_KEY", S3ProxyServer.SECRET_KEY);
        assertConverts(variables, "s3a://lake/from-variables");

        Path credentials = Files.createDirectories(home.resolve(".aws")).resolve("credentials");
        Files.writeString(credentials, "[default]\naws_access_key_id = " + S3ProxyServer.ACCESS_KEY
                + "\naws_secret_access_key = " + S3ProxyServer.SECRET_KEY + "\n");
        assertConverts(none, "s3a://lake/from-home-file");

        Path elsewhere = dir.resolve("team-credentials");
        Files.writeString(elsewhere, "[default]\naws_access_key_id = nobody\naws_secret_access_key = nothing\n"
                + "[ingest]\naws_access_key_id = " + S3ProxyServer.ACCESS_KEY
                + "\naws_secret_access_key = " + S3ProxyServer.SECRET_KEY + "\n");
        Map<String, String> profile = new HashMap<>(none);
        profile.put("AWS_CREDENTIAL_PROFILES_FILE", elsewhere.toString());
        profile.put("AWS_PROFILE", "ingest");
        assertConverts(profile, "s3a://lake/from-profile");

        Files.delete(credentials);
        ParqJar.Run refused = ParqJar.run(Files.createTempDirectory(dir, "run"), "512m", none,
                convertArgs("s3a://lake/no-keys"));
        assertEquals(1, refused.exit(), refused.err());
        assertTrue(refused.err().contains("credentials"), refused.err());
    }

    private void assertConverts(Map<String, String> environment, String output) throws Exception {
        ParqJar.Run run = ParqJar.run(Files.createTempDirectory(dir, "run"), "512m", environment, convertArgs(output));
        assertEquals(0, run.exit(), run.err());
        String key = output.substring("s3a://lake/".length());
        assertTrue(s3.files(BUCKET, key).contains("_SUCCESS"), s3.files(BUCKET, key).toString());
    }

    private String[] convertArgs(String output) throws Exception {
        Path input = dir.resolve("people.ndjson");
        if (!Files.exists(input)) {
            People.write(input, 10_000);
        }
        List<String> args = new ArrayList<>(List.of("convert", input.toString(), "-o", output, "--schema", People.SCHEMA));
        args.addAll(S3ProxyServer.endpointFlags());
        return args.toArray(String[]::new);
    }

    @Test
    void aWrongSecretKeyIsAccessDeniedInOneLineAndWritesNothing() throws Exception {
        Path input = dir.resolve("people.ndjson");
        People.write(input, 10_000);
        assertFailsInOneLine(parq(S3ProxyServer.ACCESS_KEY, "not-the-secret",
                "convert", input.toString(), "-o", "s3a://lake/wrong-secret"), "access denied");
        assertEquals(List.of(), s3.files(BUCKET, "wrong-secret"));
    }

    @Test
    void anUnknownAccessKeyIsAccessDeniedInOneLine() throws Exception {
        Path input = dir.resolve("people.ndjson");
        People.write(input, 10_000);
        assertFailsInOneLine(parq("nobody", S3ProxyServer.SECRET_KEY,
                "convert", input.toString(), "-o", "s3a://lake/unknown-key"), "access denied");
        assertEquals(List.of(), s3.files(BUCKET, "unknown-key"));
    }

    /** The object is there: a refused read says so, it is not a missing input (exit 2). */
    @Test
    void anInputReadWithAWrongSecretKeyIsAccessDeniedNotMissing() throws Exception {
        String output = dir.resolve("out").toString();
        assertFailsInOneLine(parq(S3ProxyServer.ACCESS_KEY, "not-the-secret",
                "convert", "s3a://lake/in.ndjson", "-o", output), "cannot read the inputs: access denied");
        assertFailsInOneLine(parq(S3ProxyServer.ACCESS_KEY, "not-the-secret",
                "convert", "s3a://lake/*.ndjson", "-o", output), "cannot read the inputs: access denied");
    }

    private static List<String> parq(String accessKey, String secretKey, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(S3ProxyServer.flags(accessKey, secretKey));
        all.addAll(List.of("--schema", People.SCHEMA));
        return all;
    }

    private static Cli.Result convert(String secretKey, String... args) {
        List<String> all = new ArrayList<>(List.of("convert"));
        all.addAll(parq(S3ProxyServer.ACCESS_KEY, secretKey, args));
        return Cli.run(all.toArray(String[]::new));
    }

    private void assertFailsInOneLine(List<String> args, String expected) throws Exception {
        ParqJar.assertFailsInOneLine(Files.createTempDirectory(dir, "run"), args, expected);
    }
}
