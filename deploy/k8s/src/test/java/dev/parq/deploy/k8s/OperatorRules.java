package dev.parq.deploy.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.jobmanager.HighAvailabilityMode;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the Flink Kubernetes Operator 1.15 refuses in a FlinkDeployment beyond the CRD's schema (its
 * DefaultValidator; the operator's own jars on Maven Central are too old to read these manifests),
 * plus the Flink version of parq's image. Directories and HA are read through Flink's own options,
 * as the operator reads them, so that a deprecated key such as {@code state.checkpoints.dir} counts.
 */
final class OperatorRules {

    /** The Flink of parq's image (flink:2.2.1-java17). */
    static final String FLINK_VERSION = "v2_2";

    private static final Pattern NAME = Pattern.compile("[a-z]([-a-z\\d]{0,43}[a-z\\d])?");
    private static final List<String> FORBIDDEN_KEYS = List.of(
            "kubernetes.namespace", "kubernetes.cluster-id", HighAvailabilityOptions.HA_CLUSTER_ID.key());
    private static final Set<String> LOG_CONFIGURATION_KEYS = Set.of("log4j-console.properties", "logback-console.xml");
    /** Operator settings that take savepoints, and so need a savepoint directory. */
    private static final List<String> SAVEPOINTING_KEYS = List.of(
            "kubernetes.operator.periodic.savepoint.interval",
            "kubernetes.operator.job.upgrade.last-state.max.allowed.checkpoint.age");
    /** A Kubernetes quantity in bytes, which the operator accepts where Flink's MemorySize does not. */
    private static final Pattern QUANTITY = Pattern.compile("\\d+(\\.\\d+)?([KMGTPE]i?|[kmgtpe])?");

    private OperatorRules() {}

    /** The operator's objections to {@code manifest}, one message each; empty if none. */
    static List<String> violations(JsonNode manifest) {
        List<String> found = new ArrayList<>();
        JsonNode spec = manifest.path("spec");
        Map<String, String> flat = Manifests.flinkConfiguration(manifest);
        Configuration config = Configuration.fromMap(flat);

        String name = manifest.path("metadata").path("name").asText();
        if (!NAME.matcher(name).matches()) {
            found.add("metadata.name '" + name + "' does not match " + NAME.pattern());
        }
        if (!FLINK_VERSION.equals(spec.path("flinkVersion").asText())) {
            found.add("spec.flinkVersion must be " + FLINK_VERSION + ", the image's, not '"
                    + spec.path("flinkVersion").asText() + "'");
        }
        if (spec.path("serviceAccount").asText().isBlank()) {
            found.add("spec.serviceAccount must be set");
        }
        for (String key : FORBIDDEN_KEYS) {
            if (flat.containsKey(key)) {
                found.add("flinkConfiguration must not set " + key + ": the operator sets it");
            }
        }
        spec.path("logConfiguration").fieldNames().forEachRemaining(key -> {
            if (!LOG_CONFIGURATION_KEYS.contains(key)) {
                found.add("logConfiguration key " + key + " is not one of " + LOG_CONFIGURATION_KEYS);
            }
        });
        job(spec, config, found);
        boolean ha = HighAvailabilityMode.isHighAvailabilityModeActivated(config);
        int jobManagers = spec.path("jobManager").path("replicas").asInt(1);
        if (jobManagers < 1) {
            found.add("jobManager.replicas must be at least 1");
        } else if (jobManagers > 1 && !ha) {
            found.add("jobManager.replicas " + jobManagers + " needs high availability (high-availability.type)");
        }
        JsonNode taskManagers = spec.path("taskManager").path("replicas");
        if (!taskManagers.isMissingNode() && taskManagers.asInt() < 1) {
            found.add("taskManager.replicas must be larger than 0");
        }
        memory(spec, "jobManager", found);
        memory(spec, "taskManager", found);
        return found;
    }

    private static void job(JsonNode spec, Configuration config, List<String> found) {
        JsonNode job = spec.path("job");
        if (job.isMissingNode()) {
            return;
        }
        String upgradeMode = job.path("upgradeMode").asText("stateless");
        if (!upgradeMode.equals("stateless") && blank(config, CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
            found.add("upgradeMode " + upgradeMode + " needs a checkpoint directory ("
                    + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key() + ")");
        }
        if (blank(config, CheckpointingOptions.SAVEPOINT_DIRECTORY)) {
            String savepoint = "needs a savepoint directory (" + CheckpointingOptions.SAVEPOINT_DIRECTORY.key() + ")";
            if (upgradeMode.equals("savepoint")) {
                found.add("upgradeMode savepoint " + savepoint);
            }
            if (job.has("savepointTriggerNonce")) {
                found.add("job.savepointTriggerNonce " + savepoint);
            }
            for (String key : SAVEPOINTING_KEYS) {
                if (config.containsKey(key)) {
                    found.add(key + " " + savepoint);
                }
            }
        }
        if (spec.path("taskManager").path("replicas").isMissingNode() && job.path("parallelism").asInt(0) < 1) {
            found.add("job.parallelism must be larger than 0");
        }
    }

    private static void memory(JsonNode spec, String role, List<String> found) {
        String memory = spec.path(role).path("resource").path("memory").asText("");
        if (memory.isBlank()) {
            found.add(role + ".resource.memory must be set");
            return;
        }
        try {
            MemorySize.parse(memory);
        } catch (IllegalArgumentException notFlinks) {
            if (!QUANTITY.matcher(memory).matches()) {
                found.add(role + ".resource.memory '" + memory + "' is neither a Flink memory size nor a quantity");
            }
        }
    }

    private static boolean blank(Configuration config, ConfigOption<String> option) {
        return config.getOptional(option).map(String::isBlank).orElse(true);
    }
}
