package dev.parq.deploy.local;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends processes the way {@code bin/stop-cluster.sh} does: SIGTERM lets Flink run its shutdown
 * hooks; whatever is still alive after a grace period is killed.
 */
final class ProcessStopper {

    private static final Duration GRACE = Duration.ofSeconds(15);

    private ProcessStopper() {}

    /** All of them signalled first, so that they shut down side by side, then each waited for. */
    static void stopAll(List<ProcessHandle> processes) {
        processes.forEach(ProcessHandle::destroy);
        processes.forEach(ProcessStopper::awaitOrKill);
    }

    static void stop(ProcessHandle process) {
        process.destroy();
        awaitOrKill(process);
    }

    /** SIGKILL, as a crash would end it, and waits until it is gone. */
    static void kill(ProcessHandle process) {
        process.destroyForcibly();
        process.onExit().join();
    }

    private static void awaitOrKill(ProcessHandle process) {
        try {
            process.onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException stillRunning) {
            kill(process);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
