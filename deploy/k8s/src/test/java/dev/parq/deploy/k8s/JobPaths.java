package dev.parq.deploy.k8s;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HighAvailabilityOptions;

import com.fasterxml.jackson.databind.JsonNode;

import dev.parq.io.Locations;
import dev.parq.job.cli.Parq;
import dev.parq.job.pipeline.IngestSettings;
import dev.parq.job.pipeline.ParqOptions;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Where the job of a FlinkDeployment reads and writes: parq's inputs, output and, for ingest, state
 * directory, as parq's command line in {@code job.args} and the {@code parq.*} keys of
 * {@code flinkConfiguration} name them; and the directories in which Flink keeps HA metadata,
 * checkpoints and savepoints. Each a local path, a {@code file:} URI or a URI of another file system.
 *
 * @param state the ingest's state directory; null for another command
 * @param flinkDirectories {@code high-availability.storageDir}, {@code execution.checkpointing.dir}
 *     and {@code execution.checkpointing.savepoint-dir} (or their deprecated keys), those set
 */
record JobPaths(String command, List<String> inputs, String output, String state, List<String> flinkDirectories) {

    /**
     * The paths of {@code manifest}'s job; empty, with a message naming job.args added to
     * {@code found}, if parq's command line does not take them.
     */
    static Optional<JobPaths> of(JsonNode manifest, List<String> found) {
        List<String> args = new ArrayList<>();
        manifest.path("spec").path("job").path("args").forEach(arg -> args.add(arg.asText()));
        ParseResult command;
        try {
            command = Parq.commandLine().parseArgs(args.toArray(String[]::new)).subcommand();
        } catch (CommandLine.ParameterException e) {
            found.add("job.args " + args + ": " + e.getMessage());
            return Optional.empty();
        }
        if (command == null) {
            found.add("job.args " + args + " name no parq command");
            return Optional.empty();
        }
        List<String> inputs = new ArrayList<>();
        command.matchedPositionals().forEach(positional -> inputs.addAll(positional.getValue()));
        String output = command.matchedOptionValue("--output", (String) null);
        Configuration config = Configuration.fromMap(Manifests.flinkConfiguration(manifest));
        String state = null;
        String name = command.commandSpec().name();
        if (name.equals("ingest")) {
            state = command.matchedOptionValue("--state", config.getOptional(ParqOptions.STATE_DIR).orElse(null));
            if (state == null && output != null) {
                state = output.replaceAll("/+$", "") + "/" + IngestSettings.STATE_DIR;
            }
        }
        List<String> flinkDirectories = Stream.of(HighAvailabilityOptions.HA_STORAGE_PATH,
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, CheckpointingOptions.SAVEPOINT_DIRECTORY)
                .map(config::getOptional)
                .flatMap(Optional::stream)
                .toList();
        return Optional.of(new JobPaths(name, List.copyOf(inputs), output, state, flinkDirectories));
    }

    /** Every path the job's pods reach: parq's and Flink's. */
    List<String> all() {
        List<String> all = new ArrayList<>(inputs);
        Stream.of(output, state).filter(path -> path != null).forEach(all::add);
        all.addAll(flinkDirectories);
        return all;
    }

    /** The scheme of {@code location} in lower case, or null for a local path or a {@code file:} URI. */
    static String scheme(String location) {
        return Locations.isLocal(location) ? null : location.substring(0, location.indexOf(':')).toLowerCase();
    }

    /**
     * {@code location}, a directory, as a URI that is equal however it is written: {@code file://}
     * for a local path, no trailing '/', no repeated '/', '.' and '..' resolved (as Flink's file
     * systems read it).
     */
    static URI directory(String location) {
        URI uri = new org.apache.flink.core.fs.Path(location).toUri().normalize();
        if (scheme(location) != null) {
            return uri;
        }
        try {
            return new URI("file", "", Path.of(uri.getPath()).toAbsolutePath().normalize().toString(), null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(location + " is not a valid path: " + e.getMessage(), e);
        }
    }
}
