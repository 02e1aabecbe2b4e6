package dev.parq.deploy.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * The FlinkDeployment CRD's {@code openAPIV3Schema}, applied as a Kubernetes API server with strict
 * field validation ({@code kubectl apply --validate=strict}) applies it: a field the schema does not
 * name is an error wherever the schema does not leave the object open
 * ({@code additionalProperties} or {@code x-kubernetes-preserve-unknown-fields}).
 */
final class CrdSchema {

    /** The CRD of the operator release parq targets, in this module's test resources. */
    static final Path CRD = Path.of("src", "test", "resources", "crd", "flinkdeployments.flink.apache.org-v1.yml")
            .toAbsolutePath();

    private static final String PRESERVE_UNKNOWN = "x-kubernetes-preserve-unknown-fields";

    private final Schema schema;
    private final String apiVersion;

    private CrdSchema(Schema schema, String apiVersion) {
        this.schema = schema;
        this.apiVersion = apiVersion;
    }

    static CrdSchema load() {
        if (!Files.isRegularFile(CRD)) {
            throw new AssertionError("no FlinkDeployment CRD at " + CRD);
        }
        JsonNode crd;
        try {
            crd = Manifests.YAML.readTree(CRD.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode version = null;
        for (JsonNode candidate : crd.path("spec").path("versions")) {
            if (candidate.path("served").asBoolean() && candidate.path("storage").asBoolean()) {
                version = candidate;
            }
        }
        if (version == null) {
            throw new AssertionError(CRD + " has no served storage version");
        }
        String apiVersion = crd.path("spec").path("group").asText() + "/" + version.path("name").asText();
        ObjectNode root = version.path("schema").path("openAPIV3Schema").deepCopy();
        ObjectNode properties = (ObjectNode) root.path("properties");
        // The API server checks these itself, before the CRD's schema: the group and version, the kind,
        // and ObjectMeta, whose schema the CRD carries for the pod templates' metadata.
        properties.putObject("apiVersion").putArray("enum").add(apiVersion);
        properties.putObject("kind").putArray("enum").add(crd.path("spec").path("names").path("kind").asText());
        properties.set("metadata", properties.path("spec").path("properties").path("podTemplate")
                .path("properties").path("metadata").deepCopy());
        root.putArray("required").add("apiVersion").add("kind").add("metadata").add("spec");
        close(root);
        return new CrdSchema(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(root), apiVersion);
    }

    /** The {@code apiVersion} a manifest of this CRD names, e.g. {@code flink.apache.org/v1beta1}. */
    String apiVersion() {
        return apiVersion;
    }

    /** What the API server would refuse in {@code manifest}, one message a field; empty if none. */
    List<String> violations(JsonNode manifest) {
        return schema.validate(manifest).stream().map(Error::toString).toList();
    }

    /** Makes every object schema that is not explicitly open refuse the fields it does not name. */
    private static void close(JsonNode node) {
        if (node instanceof ArrayNode array) {
            array.forEach(CrdSchema::close);
            return;
        }
        if (!(node instanceof ObjectNode schema)) {
            return;
        }
        boolean object = schema.has("properties") || "object".equals(schema.path("type").asText());
        if (object && !schema.has("additionalProperties") && !schema.path(PRESERVE_UNKNOWN).asBoolean()) {
            schema.put("additionalProperties", false);
        }
        for (Map.Entry<String, JsonNode> property : iterable(schema.path("properties"))) {
            close(property.getValue());
        }
        for (String nested : List.of("items", "additionalProperties", "allOf", "anyOf", "oneOf", "not")) {
            close(schema.path(nested));
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }
}
