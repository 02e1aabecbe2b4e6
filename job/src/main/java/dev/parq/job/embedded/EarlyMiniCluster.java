package dev.parq.job.embedded;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobSubmissionResult;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.graph.ExecutionPlan;

/**
 * A mini cluster whose start was begun in the background: {@link #start()}, called by Flink
 * when the job is submitted, waits for that start to finish instead of starting it again.
 */
public final class EarlyMiniCluster extends MiniCluster {

    /** The jobs submitted to a cluster of this process that is not shut down, for {@link EmbeddedCheckpoints}. */
    private static final Map<JobID, EarlyMiniCluster> RUNNING = new ConcurrentHashMap<>();

    private final MiniClusterConfiguration configuration;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile boolean taken;
    private volatile boolean starting;

    EarlyMiniCluster(MiniClusterConfiguration configuration) {
        super(configuration);
        this.configuration = configuration;
    }

    void startInBackground() {
        starting = true;
        Thread starter = new Thread(() -> {
            try {
                super.start();
                started.complete(null);
            } catch (Throwable e) {
                started.completeExceptionally(e);
            }
        }, "parq-cluster-start");
        starter.setDaemon(true);
        starter.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        starter.start();
    }

    @Override
    public void start() throws Exception {
        try {
            started.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    @Override
    public CompletableFuture<JobSubmissionResult> submitJob(ExecutionPlan plan) {
        RUNNING.put(plan.getJobID(), this);
        return super.submitJob(plan);
    }

    /** The cluster of this process {@code job} was submitted to, or null. */
    static EarlyMiniCluster running(JobID job) {
        return RUNNING.get(job);
    }

    /** Whether a job has been given this cluster (or Flink's own instead of it). */
    boolean taken() {
        return taken;
    }

    /** Whether {@code wanted} is this cluster: the same configuration, parq's own keys and the file systems' aside. */
    boolean sameCluster(MiniClusterConfiguration wanted) {
        return fits(wanted) && clusterKeys(wanted).equals(clusterKeys(configuration));
    }

    private static Map<String, String> clusterKeys(MiniClusterConfiguration cluster) {
        Map<String, String> keys = new HashMap<>(cluster.getConfiguration().toMap());
        // The file systems' keys (-D s3.endpoint=...) set up the file systems of the process
        // (EmbeddedFileSystems), not the cluster.
        keys.keySet().removeIf(key -> key.startsWith("parq.") || key.startsWith("s3.") || key.startsWith("s3a.")
                || key.startsWith("fs."));
        return keys;
    }

    /** Whether a job asking for {@code wanted} can run on this cluster. */
    boolean fits(MiniClusterConfiguration wanted) {
        return wanted.getNumTaskManagers() == configuration.getNumTaskManagers()
                && wanted.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS)
                        .equals(configuration.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS));
    }

    /** This cluster for the job if it fits, else Flink's own (and this one shut down). */
    MiniCluster take(MiniClusterConfiguration wanted) {
        taken = true;
        if (fits(wanted)) {
            return this;
        }
        closeAsync();
        return new MiniCluster(wanted);
    }

    @Override
    public CompletableFuture<Void> closeAsync() {
        RUNNING.values().removeIf(cluster -> cluster == this);
        // A close during the background start would race it: close once it has finished.
        if (!starting) {
            return super.closeAsync();
        }
        return started.handle((ok, failed) -> null).thenCompose(ignored -> super.closeAsync());
    }
}
