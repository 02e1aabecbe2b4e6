package dev.parq.deploy.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Flink's REST API on the cluster's JobManagers. */
final class JobManagerRest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ClusterDir dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    JobManagerRest(ClusterDir dir) {
        this.dir = dir;
    }

    /**
     * GET on the REST API of the newest JobManager that is running, as JSON. (With high availability
     * any JobManager's REST API answers for the leader, which it finds through ZooKeeper.)
     */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = send(dir.currentJobManager(), path);
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Whether the JobManager's REST API answers (a standby's does too, for the leader). */
    boolean answers(ClusterProcess jobManager) throws InterruptedException {
        try {
            return send(jobManager, "/overview").statusCode() == 200;
        } catch (IOException notAnswering) {
            return false;
        }
    }

    private HttpResponse<String> send(ClusterProcess jobManager, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + Loopback.ADDRESS + ":" + jobManager.ports().get("rest") + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
