package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;

import org.junit.jupiter.api.Test;

/** An S3 request the server refused reads as access denied, with the S3 error code; other failures as before. */
class StorageTest {

    @Test
    void aRefusedRequestSaysAccessWasDeniedWithTheErrorCode() {
        IOException refused = new AccessDeniedException("s3a://lake/in.ndjson: getFileStatus on s3a://lake/in.ndjson",
                null, "The request signature we calculated does not match the signature you provided.\n"
                        + "(Service: Amazon S3; Status Code: 403; Error Code: SignatureDoesNotMatch; Request ID: 1B)");
        assertEquals("access denied (SignatureDoesNotMatch): check the credentials (s3.access-key, s3.secret-key)"
                + " and what they may access", Storage.describe(new IOException("listing", refused)));
    }

    @Test
    void aRefusedHeadRequestWithoutABodyStillSaysAccessWasDenied() {
        IOException refused = new IOException(
                "Forbidden (Service: Amazon S3; Status Code: 403; Error Code: 403 Forbidden; Request ID: AC)");
        assertEquals("access denied (403 Forbidden): check the credentials (s3.access-key, s3.secret-key)"
                + " and what they may access", Storage.describe(refused));
    }

    @Test
    void aLocalFileThatMayNotBeReadKeepsItsOwnMessage() {
        assertEquals("/data/in.ndjson", Storage.describe(new AccessDeniedException("/data/in.ndjson")));
    }

    @Test
    void anUnreachableEndpointIsNamedInTheSdksWords() {
        IOException unreachable = new IOException("doesBucketExist on lake: Unable to execute HTTP request: "
                + "Connect to 127.0.0.1:1 failed: Connection refused", new IOException("Connection refused"));
        assertEquals("Connect to 127.0.0.1:1 failed: Connection refused", Storage.describe(unreachable));
    }
}
