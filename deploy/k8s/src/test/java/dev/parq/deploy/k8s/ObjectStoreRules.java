package dev.parq.deploy.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.runtime.jobmanager.HighAvailabilityMode;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a FlinkDeployment must hold for the object store, beyond what the operator and parq check:
 * <ul>
 *   <li>No key of the store in the manifest: not as an S3 setting in {@code flinkConfiguration} or
 *       {@code job.args}, not as a literal value of an environment variable that names a key, and no
 *       AWS access key id anywhere. Whoever may read the FlinkDeployment would read it, and Flink logs
 *       the program arguments unmasked.</li>
 *   <li>A job that reads or writes the store gets its keys from a Secret: S3A's credential chain takes
 *       {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} from the environment, which the
 *       JobManager's and the TaskManagers' Flink container fill through {@code valueFrom.secretKeyRef}.</li>
 *   <li>A job that follows objects keeps nothing on a node: no pod pinned to one, no host path and no
 *       claimed volume, and its output, state, checkpoints, savepoints and HA metadata on the store,
 *       with HA on, so that the operator's last-state upgrade finds them from any node.</li>
 * </ul>
 */
final class ObjectStoreRules {

    /** What S3A's environment credential provider reads. */
    static final List<String> KEY_VARIABLES = List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY");

    /** The S3 plugin's settings that hold keys, under any of its prefixes, per bucket too. */
    private static final Pattern KEY_SETTING = Pattern.compile(
            "(?:s3a?|fs\\.s3a)\\.(?:[\\w-]+\\.)*?(?:access[-.]key|secret[-.]key|session[-.]token)\\b",
            Pattern.CASE_INSENSITIVE);
    /** Environment variables that hold a key or a secret: S3A's, and any that says so in its name. */
    private static final Pattern KEY_VARIABLE = Pattern.compile(".*(ACCESS_KEY|SECRET|SESSION_TOKEN|PASSWORD).*",
            Pattern.CASE_INSENSITIVE);
    /** An AWS access key id: long-term (AKIA) or temporary (ASIA). */
    static final Pattern ACCESS_KEY_ID = Pattern.compile("\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b");
    /** Pod spec fields that tie a pod to a node. */
    private static final List<String> PINNING = List.of("nodeSelector", "nodeName");
    /** Volume sources whose data lives on a node or in a claim that binds the pods to its storage. */
    private static final List<String> NODE_VOLUMES = List.of("hostPath", "persistentVolumeClaim", "ephemeral");

    private ObjectStoreRules() {}

    /** The objections to {@code manifest}, one message each; empty if none. */
    static List<String> violations(JsonNode manifest) {
        List<String> found = new ArrayList<>();
        keysWritten(manifest, found);
        JobPaths.of(manifest, found).ifPresent(paths -> {
            if (paths.all().stream().anyMatch(ObjectStoreRules::onTheStore)) {
                keysFromASecret(manifest, found);
            }
            if (!paths.inputs().isEmpty() && paths.inputs().stream().allMatch(ObjectStoreRules::onTheStore)) {
                nothingOnANode(manifest, paths, found);
            }
        });
        return found;
    }

    /** Whether {@code location} is a URI of the S3 file system. */
    static boolean onTheStore(String location) {
        String scheme = JobPaths.scheme(location);
        return scheme != null && Image.S3_SCHEMES.contains(scheme);
    }

    private static void keysWritten(JsonNode manifest, List<String> found) {
        Manifests.flinkConfiguration(manifest).keySet().stream()
                .filter(key -> KEY_SETTING.matcher(key).matches())
                .forEach(key -> found.add("flinkConfiguration sets " + key + ": the store's keys belong in a Secret"));
        manifest.path("spec").path("job").path("args").forEach(arg -> {
            Matcher setting = KEY_SETTING.matcher(arg.asText());
            if (setting.find()) {
                found.add("job.args set " + setting.group() + ": the store's keys belong in a Secret, and Flink logs"
                        + " the arguments");
            }
        });
        Manifests.containers(manifest).forEach(container -> Manifests.stream(container.path("env"))
                .filter(variable -> KEY_VARIABLE.matcher(variable.path("name").asText()).matches())
                .filter(variable -> !variable.path("valueFrom").has("secretKeyRef"))
                .forEach(variable -> found.add("container " + container.path("name").asText() + " sets "
                        + variable.path("name").asText() + " other than from a Secret (valueFrom.secretKeyRef)")));
        accessKeyIds("", manifest, found);
    }

    /** Every field name and text value below {@code node} that holds an AWS access key id, by its JSON pointer. */
    private static void accessKeyIds(String pointer, JsonNode node, List<String> found) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String at = pointer + "/" + field.getKey();
                if (ACCESS_KEY_ID.matcher(field.getKey()).find()) {
                    found.add(at + " names an AWS access key id: the store's keys belong in a Secret");
                }
                accessKeyIds(at, field.getValue(), found);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                accessKeyIds(pointer + "/" + i, node.get(i), found);
            }
        } else if (node.isTextual() && ACCESS_KEY_ID.matcher(node.asText()).find()) {
            found.add(pointer + " holds an AWS access key id: the store's keys belong in a Secret");
        }
    }

    private static void keysFromASecret(JsonNode manifest, List<String> found) {
        for (String role : ParqRules.ROLES) {
            Map<String, JsonNode> environment = Manifests.environment(manifest, role);
            for (String name : KEY_VARIABLES) {
                JsonNode variable = environment.get(name);
                JsonNode secret = variable == null ? null : variable.path("valueFrom").path("secretKeyRef");
                if (secret == null || secret.path("name").asText().isBlank() || secret.path("key").asText().isBlank()) {
                    found.add("the " + role + "'s Flink container must take " + name + " from a Secret"
                            + " (env valueFrom.secretKeyRef): S3A reads the store's keys from it");
                }
            }
        }
    }

    private static void nothingOnANode(JsonNode manifest, JobPaths paths, List<String> found) {
        for (JsonNode pod : Manifests.podSpecs(manifest)) {
            for (String field : PINNING) {
                if (pod.has(field)) {
                    found.add("a pod template sets " + field + ": a job that follows objects runs on any node");
                }
            }
            if (pod.path("affinity").has("nodeAffinity")) {
                found.add("a pod template sets affinity.nodeAffinity: a job that follows objects runs on any node");
            }
            Manifests.stream(pod.path("volumes")).forEach(volume -> NODE_VOLUMES.stream().filter(volume::has)
                    .forEach(source -> found.add("volume " + volume.path("name").asText() + " is a " + source
                            + ": a job that follows objects keeps nothing on a node or volume")));
        }
        List<String> kept = new ArrayList<>(paths.all());
        kept.removeAll(paths.inputs());
        kept.stream().filter(path -> !onTheStore(path)).forEach(path -> found.add(path
                + " is not on the object store: a job that follows objects keeps its output, state and Flink's"
                + " directories there"));
        Configuration config = Configuration.fromMap(Manifests.flinkConfiguration(manifest));
        if (!HighAvailabilityMode.isHighAvailabilityModeActivated(config)) {
            found.add("high-availability.type is not set: a job that follows objects resumes on any node from"
                    + " the HA metadata on the store");
        } else if (config.getOptional(HighAvailabilityOptions.HA_STORAGE_PATH).isEmpty()) {
            found.add("high-availability.storageDir is not set: a job that follows objects keeps its HA metadata"
                    + " on the store");
        }
    }
}
