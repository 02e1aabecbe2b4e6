package dev.parq.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Each check refuses what it is there to refuse: every case breaks one thing in a copy of a
 * shipped manifest, in memory, and expects that check, and only the named fault, to object.
 */
class ManifestChecksTest {

    private static CrdSchema crd;

    @BeforeAll
    static void loadCrd() {
        crd = CrdSchema.load();
    }

    // --- the CRD's schema, strict --------------------------------------------------------------

    @Test
    void anUnknownFieldInTheSpecIsRefused() {
        refused(crd::violations, ingest(manifest -> spec(manifest).put("parallelism", 2)), "parallelism");
    }

    @Test
    void anUnknownFieldDeepInsideIsRefused() {
        refused(crd::violations, ingest(manifest -> ((ObjectNode) spec(manifest).path("taskManager").path("resource"))
                .put("memroy", "4g")), "memroy");
    }

    @Test
    void anUnknownFieldInAPodTemplateContainerIsRefused() {
        refused(crd::violations, ingest(manifest -> ((ObjectNode) spec(manifest).path("podTemplate").path("spec")
                .path("containers").path(0)).put("volumeMount", "/data")), "volumeMount");
    }

    @Test
    void anUnknownFieldInMetadataIsRefused() {
        refused(crd::violations, ingest(manifest -> ((ObjectNode) manifest.path("metadata")).put("label", "x")), "label");
    }

    @Test
    void aValueOfTheWrongTypeOrOutsideItsEnumIsRefused() {
        refused(crd::violations, ingest(manifest -> job(manifest).put("parallelism", "two")), "parallelism");
        refused(crd::violations, ingest(manifest -> job(manifest).put("upgradeMode", "last_state")), "upgradeMode");
    }

    @Test
    void anotherApiVersionOrKindIsRefused() {
        refused(crd::violations, ingest(manifest -> manifest.put("apiVersion", "flink.apache.org/v1")), "apiVersion");
        refused(crd::violations, ingest(manifest -> manifest.put("kind", "FlinkSessionJob")), "kind");
    }

    @Test
    void flinkConfigurationIsOpenToAnyKeyAndNesting() {
        assertEquals(List.of(), crd.violations(ingest(manifest -> nest(manifest))));
    }

    // --- the operator's rules -----------------------------------------------------------------

    @Test
    void aNameTheOperatorCannotUseIsRefused() {
        refused(OperatorRules::violations, ingest(manifest -> name(manifest, "Parq_Ingest")), "metadata.name");
        refused(OperatorRules::violations, ingest(manifest -> name(manifest, "parq-" + "x".repeat(41))), "metadata.name");
        refused(OperatorRules::violations, ingest(manifest -> name(manifest, "parq-ingest-")), "metadata.name");
    }

    @Test
    void anotherFlinkVersionIsRefused() {
        refused(OperatorRules::violations, ingest(manifest -> spec(manifest).put("flinkVersion", "v1_20")), "flinkVersion");
        refused(OperatorRules::violations, ingest(manifest -> spec(manifest).remove("flinkVersion")), "flinkVersion");
    }

    @Test
    void keysTheOperatorSetsAreRefused() {
        for (String key : List.of("kubernetes.namespace", "kubernetes.cluster-id", "high-availability.cluster-id")) {
            refused(OperatorRules::violations, ingest(manifest -> config(manifest).put(key, "parq")), key);
        }
    }

    @Test
    void lastStateWithoutACheckpointDirectoryIsRefused() {
        refused(OperatorRules::violations, ingest(manifest -> config(manifest).remove("execution.checkpointing.dir")),
                "checkpoint directory");
    }

    @Test
    void theOldCheckpointAndSavepointKeysCountAsTheNewOnes() {
        JsonNode renamed = ingest(manifest -> {
            ObjectNode config = config(manifest);
            config.set("state.checkpoints.dir", config.remove("execution.checkpointing.dir"));
            config.set("state.savepoints.dir", config.remove("execution.checkpointing.savepoint-dir"));
        });
        assertEquals(List.of(), OperatorRules.violations(renamed));
        assertEquals(List.of(), ParqRules.violations(renamed));
    }

    @Test
    void savepointsWithoutASavepointDirectoryAreRefused() {
        // the ingest manifest's checkpoint age limit triggers savepoints
        refused(OperatorRules::violations, ingest(manifest -> config(manifest).remove("execution.checkpointing.savepoint-dir")),
                "max.allowed.checkpoint.age");
        refused(OperatorRules::violations, ingest(manifest -> {
            config(manifest).remove("execution.checkpointing.savepoint-dir");
            config(manifest).remove("kubernetes.operator.job.upgrade.last-state.max.allowed.checkpoint.age");
            job(manifest).put("upgradeMode", "savepoint");
        }), "upgradeMode savepoint");
    }

    @Test
    void standbyJobManagersWithoutHighAvailabilityAreRefused() {
        refused(OperatorRules::violations, convert(manifest -> {
            config(manifest).remove("high-availability.type");
            ((ObjectNode) spec(manifest).path("jobManager")).put("replicas", 2);
        }), "high availability");
    }

    @Test
    void noParallelismOrNoTaskManagersIsRefused() {
        refused(OperatorRules::violations, convert(manifest -> job(manifest).put("parallelism", 0)), "parallelism");
        refused(OperatorRules::violations, convert(manifest -> ((ObjectNode) spec(manifest).path("taskManager"))
                .put("replicas", 0)), "taskManager.replicas");
    }

    @Test
    void memoryNotSetIsRefused() {
        refused(OperatorRules::violations, convert(manifest -> ((ObjectNode) spec(manifest).path("jobManager")
                .path("resource")).remove("memory")), "jobManager.resource.memory");
        refused(OperatorRules::violations, convert(manifest -> ((ObjectNode) spec(manifest).path("taskManager")
                .path("resource")).put("memory", "lots")), "taskManager.resource.memory");
    }

    @Test
    void anUnknownLogConfigurationKeyIsRefused() {
        refused(OperatorRules::violations, convert(manifest -> spec(manifest).putObject("logConfiguration")
                .put("log4j.properties", "rootLogger.level = INFO")), "log4j.properties");
    }

    // --- parq's command line and options ------------------------------------------------------

    @Test
    void anUnknownParqKeyIsRefused() {
        refused(ParqRules::violations, convert(manifest -> config(manifest).put("parq.sink.compresion", "zstd")),
                "parq.sink.compresion");
    }

    @Test
    void aParqValueOutOfItsRangeIsRefused() {
        refused(ParqRules::violations, convert(manifest -> config(manifest).put("parq.sink.compression", "brotli")),
                "parq.sink.compression");
    }

    @Test
    void aParqKeyInNestedConfigurationIsReadLikeAFlatOne() {
        assertEquals(List.of(), ParqRules.violations(ingest(ManifestChecksTest::nest)));
        refused(ParqRules::violations, ingest(manifest -> {
            nest(manifest);
            ((ObjectNode) config(manifest).path("parq").path("sink")).put("page-sise", "1mb");
        }), "parq.sink.page-sise");
    }

    @Test
    void argumentsParqDoesNotParseAreRefused() {
        refused(ParqRules::violations, convert(manifest -> args(manifest).add("--compresion")), "--compresion");
        refused(ParqRules::violations, convert(manifest -> args(manifest).add("--row-group-size").add("huge")),
                "--row-group-size");
        refused(ParqRules::violations, convert(manifest -> args(manifest).set(0, "conver")), "conver");
        refused(ParqRules::violations, convert(manifest -> {
            ArrayNode args = args(manifest);
            args.remove(2);
            args.remove(2);
        }), "--output");
    }

    @Test
    void pathsOnNoSharedVolumeAreRefused() {
        refused(ParqRules::violations, convert(manifest -> args(manifest).set(3, "/tmp/out")), "/tmp/out");
        refused(ParqRules::violations, ingest(manifest -> args(manifest).set(1, "logs/app.log*")), "logs/app.log*");
        // the volumes on the JobManager's pod template alone
        refused(ParqRules::violations, ingest(manifest -> ((ObjectNode) spec(manifest).path("jobManager"))
                .set("podTemplate", spec(manifest).remove("podTemplate"))), "the taskManager mounts");
    }

    @Test
    void checkpointDirectoriesOtherThanIngestsOwnAreRefused() {
        refused(ParqRules::violations, ingest(manifest -> config(manifest)
                .put("execution.checkpointing.savepoint-dir", "file:///data/savepoints")), "savepoint-dir");
        refused(ParqRules::violations, ingest(manifest -> config(manifest).put("parq.ingest.state-dir", "/data/parq/state")),
                "not parq ingest's file:///data/parq/state/");
        refused(ParqRules::violations, ingest(manifest -> config(manifest)
                .put("execution.checkpointing.dir", "s3://bucket/parq/app/_state/checkpoints")), "checkpointing.dir");
    }

    @Test
    void anotherJarOrEntryIsRefused() {
        refused(ParqRules::violations, convert(manifest -> job(manifest).put("jarURI", "local:///opt/flink/usrlib/parq-job.jar")),
                "jarURI");
        refused(ParqRules::violations, convert(manifest -> job(manifest).put("entryClass", "dev.parq.job.Launcher")),
                "entryClass");
    }

    // --- helpers ------------------------------------------------------------------------------

    /** {@code check} finds fault with {@code manifest}, and every fault it finds names {@code what}. */
    private static void refused(Function<JsonNode, List<String>> check, JsonNode manifest, String what) {
        List<String> found = check.apply(manifest);
        assertTrue(!found.isEmpty(), "nothing found wrong, expected a fault naming " + what);
        assertTrue(found.stream().allMatch(fault -> fault.contains(what)), "expected only faults naming " + what
                + ", found " + found);
    }

    private static ObjectNode ingest(Consumer<ObjectNode> change) {
        return changed("ingest.yaml", change);
    }

    private static ObjectNode convert(Consumer<ObjectNode> change) {
        return changed("convert-batch.yaml", change);
    }

    private static ObjectNode changed(String file, Consumer<ObjectNode> change) {
        ObjectNode manifest = Manifests.read(Manifests.DIRECTORY.resolve(file));
        change.accept(manifest);
        return manifest;
    }

    private static ObjectNode spec(ObjectNode manifest) {
        return (ObjectNode) manifest.path("spec");
    }

    private static ObjectNode job(ObjectNode manifest) {
        return (ObjectNode) spec(manifest).path("job");
    }

    private static ArrayNode args(ObjectNode manifest) {
        return (ArrayNode) job(manifest).path("args");
    }

    private static ObjectNode config(ObjectNode manifest) {
        return (ObjectNode) spec(manifest).path("flinkConfiguration");
    }

    private static void name(ObjectNode manifest, String name) {
        ((ObjectNode) manifest.path("metadata")).put("name", name);
    }

    /** Rewrites flinkConfiguration as nested YAML ({@code parq: {sink: {compression: zstd}}}). */
    private static void nest(ObjectNode manifest) {
        ObjectNode flat = config(manifest);
        ObjectNode nested = spec(manifest).putObject("flinkConfiguration");
        flat.fields().forEachRemaining(entry -> {
            String[] parts = entry.getKey().split("\\.");
            ObjectNode at = nested;
            for (int i = 0; i < parts.length - 1; i++) {
                at = at.has(parts[i]) && at.get(parts[i]).isObject() ? (ObjectNode) at.get(parts[i]) : at.putObject(parts[i]);
            }
            at.set(parts[parts.length - 1], entry.getValue());
        });
    }
}
