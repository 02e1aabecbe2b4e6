package dev.parq.job;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.parq.deploy.local.LocalCluster;

/**
 * A deploy/local session cluster for the tests of one class, started before the first and stopped
 * after the last: {@code @RegisterExtension static final SessionCluster session = ...}.
 */
final class SessionCluster implements BeforeAllCallback, AfterAllCallback {

    private final String test;
    private final int taskManagers;
    private final int slots;
    private final boolean highAvailability;
    private final int warmUpMegabytes;
    private LocalCluster cluster;
    private ClusterJobs jobs;

    SessionCluster(String test, int taskManagers, int slots, boolean highAvailability) {
        this(test, taskManagers, slots, highAvailability, 0);
    }

    /** Whose start ends with a warm-up job that converts {@code warmUpMegabytes} of generated NDJSON. */
    SessionCluster(String test, int taskManagers, int slots, boolean highAvailability, int warmUpMegabytes) {
        this.test = test;
        this.taskManagers = taskManagers;
        this.slots = slots;
        this.highAvailability = highAvailability;
        this.warmUpMegabytes = warmUpMegabytes;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = ClusterJobs.startCluster(test, taskManagers, slots, highAvailability, warmUpMegabytes);
        jobs = new ClusterJobs(cluster);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
    }

    LocalCluster cluster() {
        return cluster;
    }

    ClusterJobs jobs() {
        return jobs;
    }
}
