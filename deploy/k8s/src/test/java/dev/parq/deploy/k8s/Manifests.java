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
        JsonNode spec = manifest.path("spec");
        return Stream.of(spec.path("podTemplate"), spec.path(role).path("podTemplate"))
                .flatMap(template -> stream(template.path("spec").path("containers")))
                .filter(container -> container.path("name").asText().equals("flink-main-container"))
                .flatMap(container -> stream(container.path("volumeMounts")))
                .map(mount -> mount.path("mountPath").asText())
                .toList();
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        Stream.Builder<JsonNode> elements = Stream.builder();
        array.forEach(elements);
        return elements.build();
    }
}
