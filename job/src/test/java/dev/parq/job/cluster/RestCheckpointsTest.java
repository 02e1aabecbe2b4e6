package dev.parq.job.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class RestCheckpointsTest {

    /** The job carries where the REST API is and how to reach it, and none of the client's other keys (secrets among them). */
    @Test
    void onlyTheKeysThatReachTheRestApiTravelWithTheJob() {
        Configuration client = Configuration.fromMap(Map.of(
                "rest.address", "127.0.0.1",
                "rest.port", "8081",
                "high-availability.type", "zookeeper",
                "high-availability.zookeeper.quorum", "127.0.0.1:2181",
                "security.ssl.rest.enabled", "false",
                "s3.secret-key", "hidden",
                "parallelism.default", "2"));
        assertEquals(Map.of(
                "rest.address", "127.0.0.1",
                "rest.port", "8081",
                "high-availability.type", "zookeeper",
                "high-availability.zookeeper.quorum", "127.0.0.1:2181",
                "security.ssl.rest.enabled", "false"), RestCheckpoints.of(client).keys());
    }
}
