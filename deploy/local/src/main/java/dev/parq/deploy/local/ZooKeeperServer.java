package dev.parq.deploy.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ZooKeeper server of a cluster with high availability: a standalone server on loopback, its
 * data under {@code zookeeper/}, through which every Flink process finds the leading JobManager,
 * and the keys that point Flink at it (job graphs and checkpoints' metadata in {@code ha/}).
 */
final class ZooKeeperServer {

    private static final String MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String CONFIG = "zoo.cfg";
    private static final String LOOPBACK = Loopback.ADDRESS;

    private final ClusterDir dir;
    private final Path lib;
    private final int port;

    /** {@code lib}: the server's jars. */
    ZooKeeperServer(ClusterDir dir, Path lib, int port) {
        this.dir = dir;
        this.lib = lib;
        this.port = port;
    }

    /** The keys of the cluster's configuration that turn ZooKeeper high availability on. */
    Map<String, String> flinkOptions() {
        return Map.of(
                "high-availability.type", "zookeeper",
                "high-availability.zookeeper.quorum", LOOPBACK + ":" + port,
                "high-availability.storageDir", dir.path().resolve("ha").toUri().toString(),
                "high-availability.cluster-id", "/parq-local",
                "high-availability.zookeeper.path.root", "/flink");
    }

    void writeConfig() throws IOException {
        Files.writeString(dir.conf().resolve(CONFIG), String.join("\n",
                "# Written by deploy/local's LocalCluster: the ZooKeeper server of this cluster's high availability.",
                "tickTime=1000",
                "dataDir=" + dir.path().resolve("zookeeper"),
                "clientPort=" + port,
                "clientPortAddress=" + LOOPBACK,
                // srvr is how status asks whether it serves; no admin server on port 8080 of all interfaces
                "4lw.commands.whitelist=srvr",
                "admin.enableServer=false",
                ""));
    }

    /** Starts the server, detached as the Flink processes are, and waits until it serves. */
    void launch(ProcessLauncher launcher, Duration timeout) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessLauncher.javaExecutable(), "-Xmx128m"));
        command.addAll(launcher.logOptions(dir.logs().resolve(ClusterProcess.ZOOKEEPER + ".log")));
        command.addAll(List.of("-classpath", lib + "/*", MAIN, dir.conf().resolve(CONFIG).toString()));
        ClusterProcess zooKeeper = launcher.startDetached(ClusterProcess.ZOOKEEPER, command, Map.of("client", port));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!answers(port)) {
            if (!dir.isAlive(zooKeeper) || System.nanoTime() > deadline) {
                throw new IllegalStateException("ZooKeeper did not serve on " + LOOPBACK + ":" + port + "\n" + dir.diagnostics());
            }
            Thread.sleep(100);
        }
    }

    /** Whether a ZooKeeper server serves on {@code port}: its {@code srvr} command answers with its mode. */
    static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 1000);
            socket.setSoTimeout(2000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).contains("Mode: ");
        } catch (IOException notServing) {
            return false;
        }
    }
}
