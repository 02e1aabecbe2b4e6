package dev.parq.deploy.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import dev.parq.deploy.local.LocalCluster.Application;
import dev.parq.deploy.local.LocalCluster.Settings;

/**
 * What every process of a cluster is started from, kept in {@code run/cluster.settings}: a later
 * command ({@code add-taskmanager}, {@code add-jobmanager}), another JVM than the one that started
 * the cluster, starts its processes from the same. {@code zooKeeperLib} is null without high
 * availability, {@code application} null for a session cluster; {@code classArchives}: whether its
 * JobManagers and TaskManagers start from class-data archives ({@link ClassArchive}).
 */
record ClusterSpec(Path lib, Path zooKeeperLib, Application application, int slots, Duration timeout,
        boolean classArchives) {

    private static final String FILE = "cluster.settings";

    ClusterSpec {
        lib = lib.toAbsolutePath();
        zooKeeperLib = zooKeeperLib == null ? null : zooKeeperLib.toAbsolutePath();
    }

    static ClusterSpec of(Settings settings) {
        return new ClusterSpec(settings.lib(), settings.zooKeeperLib(), settings.application(), settings.slots(),
                settings.timeout(), settings.classArchives());
    }

    boolean highAvailability() {
        return zooKeeperLib != null;
    }

    void write(Path runDir) throws IOException {
        Properties settings = new Properties();
        settings.setProperty("lib", lib.toString());
        if (zooKeeperLib != null) {
            settings.setProperty("zookeeper.lib", zooKeeperLib.toString());
        }
        if (application != null) {
            settings.setProperty("application.jar", application.jar().toString());
            settings.setProperty("application.main", application.mainClass());
            for (int i = 0; i < application.args().size(); i++) {
                settings.setProperty("application.arg." + i, application.args().get(i));
            }
        }
        settings.setProperty("slots", Integer.toString(slots));
        settings.setProperty("timeout", timeout.toString());
        settings.setProperty("class-archives", Boolean.toString(classArchives));
        try (Writer out = Files.newBufferedWriter(runDir.resolve(FILE), StandardCharsets.UTF_8)) {
            settings.store(out, "how this cluster was started");
        }
    }

    /** That of the cluster started in {@code dir}, running or not. */
    static ClusterSpec read(Path dir) throws IOException {
        Path file = dir.resolve("run").resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no cluster was started in " + dir.toAbsolutePath());
        }
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        String zooKeeperLib = settings.getProperty("zookeeper.lib");
        Application application = null;
        if (settings.getProperty("application.jar") != null) {
            List<String> args = new ArrayList<>();
            for (int i = 0; settings.getProperty("application.arg." + i) != null; i++) {
                args.add(settings.getProperty("application.arg." + i));
            }
            application = new Application(Path.of(settings.getProperty("application.jar")),
                    settings.getProperty("application.main"), args);
        }
        return new ClusterSpec(Path.of(settings.getProperty("lib")), zooKeeperLib == null ? null : Path.of(zooKeeperLib),
                application, Integer.parseInt(settings.getProperty("slots")), Duration.parse(settings.getProperty("timeout")),
                Boolean.parseBoolean(settings.getProperty("class-archives", "true")));
    }
}
