package dev.parq.deploy.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.job.Main;
import dev.parq.job.cli.Parq;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.FlinkSettings;
import dev.parq.job.pipeline.IngestSettings;
import dev.parq.job.pipeline.ParqOptions;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * What parq itself would refuse in a FlinkDeployment, found without running it: the jar and entry of
 * the image, {@code job.args} as parq's command line parses them, the {@code parq.*} keys and values
 * of {@code flinkConfiguration} as parq's options declare them, inputs and output on volumes that
 * both the JobManager and the TaskManagers mount, and for ingest the operator's checkpoint and
 * savepoint directories being those parq uses.
 */
final class ParqRules {

    /** Where the Dockerfile puts parq-job.jar. */
    private static final Pattern JAR_COPY = Pattern.compile("(?m)^COPY\\s.*\\bjob/target/parq-job\\.jar\\s+(\\S+)\\s*$");
    private static final String GLOB_CHARACTERS = "*?[{";

    private ParqRules() {}

    /** parq's objections to {@code manifest}, one message each; empty if none. */
    static List<String> violations(JsonNode manifest) {
        List<String> found = new ArrayList<>();
        JsonNode job = manifest.path("spec").path("job");
        String jar = "local://" + imageJar();
        if (!jar.equals(job.path("jarURI").asText())) {
            found.add("job.jarURI must be " + jar + ", where the Dockerfile puts parq-job.jar");
        }
        if (!Main.class.getName().equals(job.path("entryClass").asText())) {
            found.add("job.entryClass must be " + Main.class.getName());
        }
        Map<String, String> parqKeys = parqKeys(manifest, found);
        List<String> args = new ArrayList<>();
        job.path("args").forEach(arg -> args.add(arg.asText()));
        ParseResult command;
        try {
            command = Parq.commandLine().parseArgs(args.toArray(String[]::new)).subcommand();
        } catch (CommandLine.ParameterException e) {
            found.add("job.args " + args + ": " + e.getMessage());
            return found;
        }
        if (command == null) {
            found.add("job.args " + args + " name no parq command");
            return found;
        }
        List<String> paths = new ArrayList<>();
        command.matchedPositionals().forEach(positional -> paths.addAll(positional.getValue()));
        String output = command.matchedOptionValue("--output", (String) null);
        paths.add(output);
        String state = null;
        if (command.commandSpec().name().equals("ingest")) {
            state = command.matchedOptionValue("--state", parqKeys.get(ParqOptions.STATE_DIR.key()));
            if (state == null && output != null) {
                state = Path.of(output).resolve(IngestSettings.STATE_DIR).toString();
            }
            if (state != null) {
                paths.add(state);
                ingestDirectories(manifest, Path.of(state), found);
            }
        }
        for (String role : List.of("jobManager", "taskManager")) {
            List<String> mounts = Manifests.mountPaths(manifest, role);
            for (String path : paths) {
                if (path != null && mounts.stream().noneMatch(mount -> under(path, mount))) {
                    found.add(path + " is on no volume the " + role + " mounts (" + mounts + ")");
                }
            }
        }
        return found;
    }

    /** The {@code parq.*} keys of {@code flinkConfiguration}, each a declared option with a value it accepts. */
    private static Map<String, String> parqKeys(JsonNode manifest, List<String> found) {
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
        return parqKeys;
    }

    /**
     * parq ingest keeps its checkpoints and savepoints under its state directory whatever the Flink
     * configuration says; the operator must name the same directories, or its savepoints land where
     * a restarted ingest does not look.
     */
    private static void ingestDirectories(JsonNode manifest, Path state, List<String> found) {
        Configuration config = Configuration.fromMap(Manifests.flinkConfiguration(manifest));
        Map<ConfigOption<String>, String> expected = Map.of(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, FlinkSettings.CHECKPOINTS,
                CheckpointingOptions.SAVEPOINT_DIRECTORY, FlinkSettings.SAVEPOINTS);
        expected.forEach((option, name) -> {
            Path wanted = state.resolve(name);
            String configured = config.getOptional(option).orElse(null);
            if (configured == null || !wanted.equals(localPath(configured))) {
                found.add(option.key() + " is " + configured + ", not parq ingest's " + wanted.toUri());
            }
        });
    }

    /** The path of a {@code file:} URI (or a path without a scheme), or null for another file system. */
    private static Path localPath(String location) {
        URI uri = URI.create(location).normalize();
        if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
            return null;
        }
        return Path.of(uri.getPath());
    }

    /** Whether {@code path} (of a glob: the directory it starts from) lies in the directory {@code mount}. */
    private static boolean under(String path, String mount) {
        int glob = path.length();
        for (char c : GLOB_CHARACTERS.toCharArray()) {
            int at = path.indexOf(c);
            if (at >= 0 && at < glob) {
                glob = at;
            }
        }
        String directory = glob == path.length() ? path : path.substring(0, path.lastIndexOf('/', glob) + 1);
        Path local = Path.of(directory);
        return local.isAbsolute() && local.normalize().startsWith(Path.of(mount));
    }

    /** The absolute path the Dockerfile copies parq-job.jar to. */
    static String imageJar() {
        Path dockerfile = Manifests.DIRECTORY.resolve("Dockerfile");
        try {
            Matcher copy = JAR_COPY.matcher(Files.readString(dockerfile));
            if (!copy.find()) {
                throw new AssertionError(dockerfile + " copies no job/target/parq-job.jar");
            }
            return copy.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
