package dev.parq.deploy.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;

import dev.parq.deploy.local.LocalCluster.Settings;

/**
 * The cluster's {@code conf/}: its {@code config.yaml}, the template with this run's addresses,
 * ports and directories in place of the template's keys of those names, and the
 * {@code log4j.properties} that sends each process's log to its own file.
 */
final class ClusterConfig {

    private static final String LOOPBACK = Loopback.ADDRESS;

    private ClusterConfig() {}

    /** {@code highAvailability}: the keys that point the processes at the ZooKeeper server, if one runs. */
    static void write(ClusterDir dir, Settings settings, int restPort, int rpcPort, Map<String, String> highAvailability)
            throws IOException {
        Map<String, String> ours = new LinkedHashMap<>(Map.ofEntries(
                Map.entry("jobmanager.rpc.address", LOOPBACK),
                Map.entry("jobmanager.rpc.port", Integer.toString(rpcPort)),
                Map.entry("jobmanager.bind-host", LOOPBACK),
                Map.entry("taskmanager.host", LOOPBACK),
                Map.entry("taskmanager.bind-host", LOOPBACK),
                Map.entry("taskmanager.numberOfTaskSlots", Integer.toString(settings.slots())),
                Map.entry("parallelism.default", Integer.toString(settings.slots())),
                Map.entry("rest.address", LOOPBACK),
                Map.entry("rest.bind-address", LOOPBACK),
                Map.entry("rest.port", Integer.toString(restPort)),
                Map.entry("io.tmp.dirs", dir.path().resolve("tmp").toString()),
                // an application's jar is copied there, and a copy already there is taken as it is
                // (by default /opt/flink/artifacts, shared by every cluster and run)
                Map.entry("user.artifacts.base-dir", dir.path().resolve("artifacts").toString())));
        ours.putAll(highAvailability);
        if (settings.jar() != null) {
            // Every process has parq on its class path: flink run need not send it with each job.
            ours.put("parq.cluster.ship-jar", "false");
        }
        ours.putAll(settings.overrides());
        StringBuilder yaml = new StringBuilder("# Written by deploy/local's LocalCluster from "
                + settings.configTemplate() + ", then this run's own keys at the end.\n");
        for (String line : Files.readAllLines(settings.configTemplate(), StandardCharsets.UTF_8)) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.startsWith("#") || !ours.containsKey(line.substring(0, colon).trim())) {
                yaml.append(line).append('\n');
            }
        }
        yaml.append("\n# --- this run\n");
        ours.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> yaml.append(e.getKey()).append(": \"").append(e.getValue()).append("\"\n"));
        Files.writeString(file(dir), yaml);
        Files.writeString(dir.conf().resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = MainAppender",
                "appender.main.name = MainAppender",
                "appender.main.type = File",
                "appender.main.fileName = ${sys:log.file}",
                "appender.main.layout.type = PatternLayout",
                "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} [%t] - %m%n",
                ""));
    }

    /** Replaces the line of {@code key} that {@link #write} wrote for this run. */
    static void set(ClusterDir dir, String key, String value) throws IOException {
        String prefix = key + ": ";
        List<String> lines = Files.readAllLines(file(dir), StandardCharsets.UTF_8).stream()
                .map(line -> line.startsWith(prefix) ? prefix + "\"" + value + "\"" : line)
                .toList();
        Files.write(file(dir), lines, StandardCharsets.UTF_8);
    }

    /** The configuration as the cluster's processes read it. */
    static Configuration load(ClusterDir dir) {
        return GlobalConfiguration.loadConfiguration(dir.conf().toString());
    }

    private static Path file(ClusterDir dir) {
        return dir.conf().resolve(GlobalConfiguration.FLINK_CONF_FILENAME);
    }
}
