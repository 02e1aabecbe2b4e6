package dev.parq.deploy.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.flink.configuration.CoreOptions;

import dev.parq.deploy.local.LocalCluster.CliResult;

/**
 * Flink's command line client against the cluster, each run a JVM of its own as {@code bin/flink}
 * starts it, with the cluster's configuration directory; its output and log go to files numbered
 * by run under {@code log/}, so that failure messages show them with the cluster's.
 */
final class FlinkClient {

    private final ClusterDir dir;
    private final ProcessLauncher launcher;
    private int runs;

    FlinkClient(ClusterDir dir, ProcessLauncher launcher) {
        this.dir = dir;
        this.launcher = launcher;
    }

    /** Runs {@code flink ARGS} and waits for it; one that takes longer than {@code limit} is stopped and fails. */
    CliResult run(Duration limit, String... args) throws IOException, InterruptedException {
        int number = ++runs;
        Path out = dir.logs().resolve("client-" + number + ".out");
        Path err = dir.logs().resolve("client-" + number + ".err");
        List<String> command = launcher.javaCommand(List.of("-Xmx512m"), CoreOptions.FLINK_CLI_JVM_OPTIONS,
                dir.logs().resolve("client-" + number + ".log"));
        command.add(ProcessLauncher.CLI_MAIN);
        command.addAll(Arrays.asList(args));
        Process client = launcher.processBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!client.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("flink " + String.join(" ", args) + " did not finish within "
                        + limit + "\n" + dir.diagnostics());
            }
        } finally {
            if (client.isAlive()) {
                ProcessStopper.stop(client.toHandle());
            }
        }
        return new CliResult(client.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
