package dev.parq.job.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.parq.source.enumerator.CheckpointRequest;

/**
 * Asks a cluster for a checkpoint through its REST API, as {@code flink checkpoint} does, with
 * Flink's own client: from the JobManager's process, where the source's enumerator runs, to the
 * address the job's client submitted to (found through the high-availability services when the
 * cluster has them, so a JobManager that took over is asked). Only the keys that say how to reach
 * the REST API travel with the job.
 */
public final class RestCheckpoints implements CheckpointRequest {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RestCheckpoints.class);
    /** The keys of the client's configuration that say where the REST API is and how to talk to it. */
    private static final List<String> PREFIXES = List.of("rest.", "high-availability", "security.ssl.", "kubernetes.");

    private final HashMap<String, String> keys;

    private RestCheckpoints(HashMap<String, String> keys) {
        this.keys = keys;
    }

    /** Asks the cluster {@code client} names (a job's configuration as its client has it). */
    public static RestCheckpoints of(ReadableConfig client) {
        HashMap<String, String> keys = new HashMap<>();
        client.toMap().forEach((key, value) -> {
            if (PREFIXES.stream().anyMatch(key::startsWith)) {
                keys.put(key, value);
            }
        });
        return new RestCheckpoints(keys);
    }

    @Override
    public void ask(JobID job) throws Exception {
        Configuration config = Configuration.fromMap(keys);
        if (!config.contains(RestOptions.ADDRESS)) {
            // In Flink's application mode the job's main ran in this JobManager, which may not name
            // its own REST address.
            config.set(RestOptions.ADDRESS, "localhost");
        }
        RestClusterClient<StandaloneClusterId> client = new RestClusterClient<>(config, StandaloneClusterId.getInstance());
        // Closed off the client's own threads, which its close waits for.
        client.triggerCheckpoint(job, CheckpointType.CONFIGURED).whenCompleteAsync((id, failure) -> {
            if (failure != null) {
                LOG.info("the checkpoint asked for after the backlog was not taken; the next periodic one commits it",
                        failure);
            }
            client.close();
        });
    }

    /** The keys that travel with the job, for tests. */
    Map<String, String> keys() {
        return Map.copyOf(keys);
    }
}
