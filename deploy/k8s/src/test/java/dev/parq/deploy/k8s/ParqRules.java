package dev.parq.deploy.k8s;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.job.Main;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.ParqOptions;

/**
 * What parq itself would refuse in a FlinkDeployment, found without running it: the jar and entry of
 * the image, {@code job.args} as parq's command line parses them, the {@code parq.*} keys and values
 * of {@code flinkConfiguration} as parq's options declare them, every local path of the job (inputs,
 * output, state, Flink's directories) on a volume that both the JobManager and the TaskManagers
 * mount and every URI on a file system the image has, and for ingest the operator's checkpoint and
 * savepoint directories being those parq uses.
 */
final class ParqRules {

    /** The roles of a FlinkDeployment's pods; each runs parq's code, so each reaches every path. */
    static final List<String> ROLES = List.of("jobManager", "taskManager");

    private static final String GLOB_CHARACTERS = "*?[{";

    private ParqRules() {}

    /** parq's objections to {@code manifest}, one message each; empty if none. */
    static List<String> violations(JsonNode manifest) {
        List<String> found = new ArrayList<>();
        JsonNode job = manifest.path("spec").path("job");
        String jar = "local://" + Image.jar();
        if (!jar.equals(job.path("jarURI").asText())) {
            found.add("job.jarURI must be " + jar + ", where the Dockerfile puts parq-job.jar");
        }
        if (!Main.class.getName().equals(job.path("entryClass").asText())) {
            found.add("job.entryClass must be " + Main.class.getName());
        }
        parqKeys(manifest, found);
        JobPaths.of(manifest, found).ifPresent(paths -> {
            if (paths.state() != null) {
                ingestDirectories(manifest, paths.state(), found);
            }
            for (String path : paths.all()) {
                reachable(manifest, path, found);
            }
        });
        return found;
    }

    /** Checks that the {@code parq.*} keys of {@code flinkConfiguration} are declared options with values they accept. */
    private static void parqKeys(JsonNode manifest, List<String> found) {
        Map<String, ConfigOption<?>> declared = ParqOptions.all();
        Map<String, String> parqKeys = new LinkedHashMap<>();
        Manifests.flinkConfiguration(manifest).forEach((key, value) -> {
            if (key.startsWith("parq.")) {
                parqKeys.put(key, value);
                if (!declared.containsKey(key)) {
                    found.add("flinkConfiguration sets " + key + ", which is not a parq option");
                }
            }
        });
        try {
            ParqOptions.validate(Configuration.fromMap(parqKeys));
        } catch (ConversionException e) {
            found.add("flinkConfiguration: " + e.getMessage());
        }
    }

    /**
     * parq ingest keeps its checkpoints and savepoints under its state directory whatever the Flink
     * configuration says, local or on a store; the operator must name the same directories, or its
     * savepoints land where a restarted ingest does not look.
     */
    private static void ingestDirectories(JsonNode manifest, String state, List<String> found) {
        Configuration config = Configuration.fromMap(Manifests.flinkConfiguration(manifest));
        Map<ConfigOption<String>, String> expected = Map.of(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, FlinkSettings.CHECKPOINTS,
                CheckpointingOptions.SAVEPOINT_DIRECTORY, FlinkSettings.SAVEPOINTS);
        expected.forEach((option, name) -> {
            URI wanted = JobPaths.directory(state + "/" + name);
            String configured = config.getOptional(option).orElse(null);
            if (configured == null || !wanted.equals(JobPaths.directory(configured))) {
                found.add(option.key() + " is " + configured + ", not parq ingest's " + wanted);
            }
        });
    }

    /** Checks that every role reaches {@code path}: on a volume it mounts, or on a file system of the image. */
    private static void reachable(JsonNode manifest, String path, List<String> found) {
        String scheme = JobPaths.scheme(path);
        for (String role : ROLES) {
            if (scheme != null) {
                Set<String> schemes = Image.schemes(manifest, role);
                if (!schemes.contains(scheme)) {
                    found.add(path + " is on no file system the " + role + " has (" + Image.PLUGINS_VARIABLE + " "
                            + Image.plugins(manifest, role) + " serves " + schemes + ")");
                }
                continue;
            }
            List<String> mounts = Manifests.mountPaths(manifest, role);
            if (mounts.stream().noneMatch(mount -> under(path, mount))) {
                found.add(path + " is on no volume the " + role + " mounts (" + mounts + ")");
            }
        }
    }

    /** Whether the local {@code path} (of a glob: the directory it starts from) lies in the directory {@code mount}. */
    private static boolean under(String path, String mount) {
        String local = path.regionMatches(true, 0, "file:", 0, 5) ? URI.create(path).getPath() : path;
        int glob = local.length();
        for (char c : GLOB_CHARACTERS.toCharArray()) {
            int at = local.indexOf(c);
            if (at >= 0 && at < glob) {
                glob = at;
            }
        }
        String directory = glob == local.length() ? local : local.substring(0, local.lastIndexOf('/', glob) + 1);
        Path start = Path.of(directory);
        return start.isAbsolute() && start.normalize().startsWith(Path.of(mount));
    }
}
