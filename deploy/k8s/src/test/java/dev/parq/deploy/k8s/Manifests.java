package dev.parq.deploy.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** The FlinkDeployment manifests of deploy/k8s as JSON trees, and the parts of them the checks read. */
final class Manifests {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** This module's directory, where the tests run and the manifests are. */
    static final Path DIRECTORY = Path.of("").toAbsolutePath();

    private Manifests() {}

    /** Every {@code *.yaml} file beside the module's pom, in name order. */
    static List<Path> all() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode read(Path file) {
        try {
            return (ObjectNode) YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * {@code spec.flinkConfiguration} with nested maps flattened into dotted keys, as the operator
     * reads it: the operator of the CRD here accepts both {@code a.b: v} and {@code a: {b: v}}.
     */
    static Map<String, String> flinkConfiguration(JsonNode manifest) {
        Map<String, String> flat = new LinkedHashMap<>();
        flatten("", manifest.path("spec").path("flinkConfiguration"), flat);
        return flat;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> flat) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> flatten(prefix + field.getKey() + ".", field.getValue(), flat));
        } else if (!node.isMissingNode() && !node.isNull()) {
            flat.put(prefix.substring(0, prefix.length() - 1), node.isValueNode() ? node.asText() : node.toString());
        }
    }

    /** The main container's mount paths, as the operator merges the common and the role's pod template. */
    static List<String> mountPaths(JsonNode manifest, String role) {
        return mainContainers(manifest, role)
                .flatMap(container -> stream(container.path("volumeMounts")))
                .map(mount -> mount.path("mountPath").asText())
                .toList();
    }

    /**
     * The main container's environment ({@code env} entries), as the operator merges the common and
     * the role's pod template: the role's entry of a name wins.
     */
    static Map<String, JsonNode> environment(JsonNode manifest, String role) {
        Map<String, JsonNode> environment = new LinkedHashMap<>();
        mainContainers(manifest, role).flatMap(container -> stream(container.path("env")))
                .forEach(variable -> environment.put(variable.path("name").asText(), variable));
        return environment;
    }

    /** The pod specs of the common, the JobManager's and the TaskManagers' pod templates, those present. */
    static List<JsonNode> podSpecs(JsonNode manifest) {
        JsonNode spec = manifest.path("spec");
        return Stream.of(spec.path("podTemplate"), spec.path("jobManager").path("podTemplate"),
                spec.path("taskManager").path("podTemplate"))
                .map(template -> template.path("spec"))
                .filter(JsonNode::isObject)
                .toList();
    }

    /** Every container and init container of every pod template. */
    static Stream<JsonNode> containers(JsonNode manifest) {
        return podSpecs(manifest).stream().flatMap(pod -> Stream.concat(stream(pod.path("containers")),
                stream(pod.path("initContainers"))));
    }

    static Stream<JsonNode> stream(JsonNode array) {
        Stream.Builder<JsonNode> elements = Stream.builder();
        array.forEach(elements);
        return elements.build();
    }

    /** The container the operator runs Flink in, from the common and then the role's pod template. */
    private static Stream<JsonNode> mainContainers(JsonNode manifest, String role) {
        JsonNode spec = manifest.path("spec");
        return Stream.of(spec.path("podTemplate"), spec.path(role).path("podTemplate"))
                .flatMap(template -> stream(template.path("spec").path("containers")))
                .filter(container -> container.path("name").asText().equals("flink-main-container"));
    }
}
