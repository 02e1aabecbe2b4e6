package dev.parq.deploy.local;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.deploy.local.LocalCluster.Status;

/**
 * Whether the cluster's processes are up, asked of each: a ZooKeeper server serves, a JobManager's
 * REST API answers, a TaskManager has registered all its slots with the JobManager; and the waits
 * until they are, which give up with the tail of the logs when a process exits or time runs out.
 */
final class ClusterHealth {

    private final ClusterDir dir;
    private final JobManagerRest rest;
    private final int slots;
    private final Duration timeout;

    ClusterHealth(ClusterDir dir, JobManagerRest rest, int slots, Duration timeout) {
        this.dir = dir;
        this.rest = rest;
        this.slots = slots;
        this.timeout = timeout;
    }

    /**
     * One line per process; up when every process but those named in {@code dead} is alive,
     * ZooKeeper and the JobManagers answer and every TaskManager is registered. The dead are
     * listed as not running without counting against being up.
     */
    Status status(Set<String> dead) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        boolean up = true;
        Set<String> registered = registeredTaskManagers();
        for (ClusterProcess process : dir.processes()) {
            String line = process.statusLine(Loopback.ADDRESS);
            if (!dir.isAlive(process)) {
                line += " (not running)";
                up &= dead.contains(process.name());
            } else if (process.isZooKeeper() && !ZooKeeperServer.answers(process.ports().get("client"))) {
                line += " (not answering)";
                up = false;
            } else if (process.isJobManager() && !rest.answers(process)) {
                line += " (not answering)";
                up = false;
            } else if (process.isTaskManager() && (registered == null || !registered.contains(process.name()))) {
                line += " (not registered)";
                up = false;
            }
            lines.add(line);
        }
        return new Status(List.copyOf(lines), up && !lines.isEmpty());
    }

    /** Waits until every process but those named in {@code dead} runs, answers and has registered. */
    void awaitUp(Set<String> dead) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Status status = status(dead);
        while (!status.up()) {
            List<String> exited = dir.notRunning().stream().filter(name -> !dead.contains(name)).toList();
            if (!exited.isEmpty()) {
                throw new IllegalStateException("exited during start-up: " + String.join(", ", exited) + "\n" + dir.diagnostics());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster was not up within " + timeout + ":\n"
                        + String.join("\n", status.lines()) + "\n" + dir.diagnostics());
            }
            Thread.sleep(250);
            status = status(dead);
        }
    }

    /** Waits until the TaskManager {@code added} has registered its slots, whatever the other processes do. */
    void awaitRegistered(ClusterProcess added) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Set<String> registered = registeredTaskManagers();
            if (registered != null && registered.contains(added.name())) {
                return;
            }
            if (!dir.isAlive(added)) {
                throw new IllegalStateException(added.name() + " exited during start-up\n" + dir.diagnostics());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(added.name() + " did not register within " + timeout + "\n"
                        + dir.diagnostics());
            }
            Thread.sleep(250);
        }
    }

    /** The names of the TaskManagers registered with all their slots, or null if the JobManager does not answer. */
    private Set<String> registeredTaskManagers() throws InterruptedException {
        JsonNode answer;
        try {
            answer = rest.get("/taskmanagers").path("taskmanagers");
        } catch (IOException | IllegalStateException notUp) {
            return null;
        }
        Set<String> names = new HashSet<>();
        answer.forEach(taskManager -> {
            if (taskManager.path("slotsNumber").asInt() == slots) {
                names.add(taskManager.path("id").asText());
            }
        });
        return names;
    }
}
