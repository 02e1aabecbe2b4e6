package dev.parq.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every manifest in deploy/k8s is one the API server accepts under the operator's CRD with strict
 * field validation, the operator accepts, and parq runs: the checks of {@link ManifestChecksTest}.
 */
class FlinkDeploymentManifestsTest {

    private static CrdSchema crd;

    @BeforeAll
    static void loadCrd() {
        crd = CrdSchema.load();
    }

    static Stream<Path> manifests() {
        return Manifests.all().stream();
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void theCrdSchemaAcceptsIt(Path file) {
        assertEquals(List.of(), crd.violations(Manifests.read(file)), file.getFileName().toString());
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void theOperatorAcceptsIt(Path file) {
        assertEquals(List.of(), OperatorRules.violations(Manifests.read(file)), file.getFileName().toString());
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void parqAcceptsItsArgumentsAndSettings(Path file) {
        assertEquals(List.of(), ParqRules.violations(Manifests.read(file)), file.getFileName().toString());
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void itKeepsTheStoresKeysInASecretAndAnObjectIngestOffTheNodes(Path file) {
        assertEquals(List.of(), ObjectStoreRules.violations(Manifests.read(file)), file.getFileName().toString());
    }

    /** The tree of a manifest has no comments; an access key id must not stand in them either. */
    @ParameterizedTest
    @MethodSource("manifests")
    void itsTextHoldsNoAccessKeyId(Path file) throws IOException {
        Matcher key = ObjectStoreRules.ACCESS_KEY_ID.matcher(Files.readString(file));
        assertFalse(key.find(), file.getFileName() + " holds an AWS access key id");
    }

    /** What makes a cluster as fast as ./parq is the same here as in deploy/local (deploy/README.md). */
    @ParameterizedTest
    @MethodSource("manifests")
    void itsJvmOptionsAreThoseOfTheClusterConfiguration(Path file) throws IOException {
        Path clusterConfig = Manifests.DIRECTORY.resolve("../../flink-conf/cluster/config.yaml").normalize();
        List<String> lines = Files.readAllLines(clusterConfig);
        JsonNode flinkConfiguration = Manifests.read(file).path("spec").path("flinkConfiguration");
        for (String key : List.of("env.java.opts.all", "env.java.opts.jobmanager", "env.java.opts.taskmanager")) {
            String expected = lines.stream().filter(line -> line.startsWith(key + ":"))
                    .map(line -> line.substring(key.length() + 1).trim()).findFirst()
                    .orElseThrow(() -> new AssertionError(key + " is not in " + clusterConfig));
            assertEquals(expected, flinkConfiguration.path(key).asText(), file.getFileName() + ": " + key);
        }
    }

    @Test
    void thereIsABatchConversionAnIngestOfLogsAndOneOfObjects() {
        List<JsonNode> manifests = Manifests.all().stream().<JsonNode>map(Manifests::read).toList();
        assertTrue(manifests.stream().anyMatch(manifest -> command(manifest).equals("convert")
                && manifest.path("spec").path("job").path("upgradeMode").asText().equals("stateless")),
                "no stateless convert manifest in " + Manifests.DIRECTORY);
        assertTrue(manifests.stream().anyMatch(manifest -> command(manifest).equals("ingest")
                && manifest.path("spec").path("job").path("upgradeMode").asText().equals("last-state")),
                "no last-state ingest manifest in " + Manifests.DIRECTORY);
        assertTrue(manifests.stream().anyMatch(manifest -> command(manifest).equals("ingest")
                && ObjectStoreRules.onTheStore(manifest.path("spec").path("job").path("args").path(1).asText())),
                "no ingest of objects in " + Manifests.DIRECTORY);
    }

    private static String command(JsonNode manifest) {
        return manifest.path("spec").path("job").path("args").path(0).asText();
    }
}
