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

    // --- the object store ---------------------------------------------------------------------

    @Test
    void checkpointDirectoriesOtherThanTheStateOnTheStoreAreRefused() {
        refused(ParqRules::violations, objects(manifest -> config(manifest)
                .put("execution.checkpointing.dir", "s3a://lake/app/_state/checkpoints")), "checkpointing.dir");
        refused(ParqRules::violations, objects(manifest -> args(manifest).set(5, "s3a://lake/app-state-2")),
                "not parq ingest's s3a://lake/app-state-2/");
        refused(ParqRules::violations, objects(manifest -> config(manifest)
                .put("execution.checkpointing.savepoint-dir", "s3a://landing/app-state/savepoints")), "savepoint-dir");
    }

    @Test
    void theStateDirectoryIsComparedAsFlinkReadsIt() {
        assertEquals(List.of(), ParqRules.violations(objects(manifest -> args(manifest).set(5, "s3a://lake//app-state/"))));
        assertEquals(List.of(), ParqRules.violations(objects(manifest -> {
            args(manifest).set(5, "s3://lake/app-state");
            config(manifest).put("execution.checkpointing.dir", "s3://lake/app-state/checkpoints/");
            config(manifest).put("execution.checkpointing.savepoint-dir", "s3://lake/app-state/savepoints");
        })));
    }

    @Test
    void aStoreWithoutTheImagesPluginIsRefused() {
        refused(ParqRules::violations, objects(manifest -> ((ArrayNode) mainContainer(manifest).path("env")).addObject()
                .put("name", Image.PLUGINS_VARIABLE).put("value", "flink-gs-fs-hadoop-2.2.1.jar")), "is on no file system the");
    }

    @Test
    void theStoresKeysWrittenIntoTheManifestAreRefused() {
        refused(ObjectStoreRules::violations, objects(manifest -> config(manifest)
                .put("s3.secret-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")), "flinkConfiguration sets s3.secret-key");
        refused(ObjectStoreRules::violations, objects(manifest -> config(manifest)
                .put("fs.s3a.bucket.lake.access.key", "minio")), "fs.s3a.bucket.lake.access.key");
        refused(ObjectStoreRules::violations, objects(manifest -> args(manifest).add("-D").add("s3.secret-key=minio123")),
                "job.args set s3.secret-key");
        refused(ObjectStoreRules::violations, objects(manifest -> ((ObjectNode) spec(manifest).path("podTemplate")
                .path("metadata").path("annotations")).put("store", "AKIAIOSFODNN7EXAMPLE")), "holds an AWS access key id");
    }

    @Test
    void keysInTheEnvironmentOtherThanFromASecretAreRefused() {
        refused(ObjectStoreRules::violations, objects(manifest -> {
            ObjectNode secretKey = (ObjectNode) mainContainer(manifest).path("env").path(1);
            secretKey.remove("valueFrom");
            secretKey.put("value", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        }), "AWS_SECRET_ACCESS_KEY");
        refused(ObjectStoreRules::violations, objects(manifest -> {
            ObjectNode valueFrom = (ObjectNode) mainContainer(manifest).path("env").path(0).path("valueFrom");
            valueFrom.set("configMapKeyRef", valueFrom.remove("secretKeyRef"));
        }), "AWS_ACCESS_KEY_ID");
        // the keys on the JobManager's pod template alone
        refused(ObjectStoreRules::violations, objects(manifest -> ((ObjectNode) spec(manifest).path("jobManager"))
                .putObject("podTemplate").putObject("spec").putArray("containers").addObject()
                .put("name", "flink-main-container").set("env", mainContainer(manifest).remove("env"))),
                "the taskManager's Flink container must take");
    }

    @Test
    void aJobThatFollowsObjectsTiedToANodeIsRefused() {
        refused(ObjectStoreRules::violations, objects(manifest -> podSpec(manifest).putObject("nodeSelector")
                .put("kubernetes.io/hostname", "node-1")), "nodeSelector");
        refused(ObjectStoreRules::violations, objects(manifest -> ((ObjectNode) spec(manifest).path("taskManager"))
                .putObject("podTemplate").putObject("spec").putObject("affinity").putObject("nodeAffinity")), "nodeAffinity");
        refused(ObjectStoreRules::violations, objects(manifest -> podSpec(manifest).putArray("volumes").addObject()
                .put("name", "parq-data").putObject("persistentVolumeClaim").put("claimName", "parq-data")),
                "persistentVolumeClaim");
        refused(ObjectStoreRules::violations, objects(manifest -> podSpec(manifest).putArray("volumes").addObject()
                .put("name", "app-logs").putObject("hostPath").put("path", "/var/log/app")), "hostPath");
    }

    @Test
    void aJobThatFollowsObjectsKeepingAnythingOffTheStoreIsRefused() {
        refused(ObjectStoreRules::violations, objects(manifest -> config(manifest)
                .put("high-availability.storageDir", "file:///data/flink/ha")), "file:///data/flink/ha is not on the object store");
        refused(ObjectStoreRules::violations, objects(manifest -> {
            args(manifest).set(5, "/data/app-state");
            config(manifest).put("execution.checkpointing.dir", "file:///data/app-state/checkpoints");
            config(manifest).put("execution.checkpointing.savepoint-dir", "file:///data/app-state/savepoints");
        }), "/data/app-state");
        refused(ObjectStoreRules::violations, objects(manifest -> config(manifest).remove("high-availability.type")),
                "high-availability.type");
        refused(ObjectStoreRules::violations, objects(manifest -> config(manifest).remove("high-availability.storageDir")),
                "high-availability.storageDir");
    }

    @Test
    void aJobThatFollowsLocalFilesMayKeepItsOutputOnTheStore() {
        JsonNode toTheStore = ingest(manifest -> {
            args(manifest).set(3, "s3a://lake/app");
            args(manifest).add("--state").add("s3a://lake/app-state");
            config(manifest).put("execution.checkpointing.dir", "s3a://lake/app-state/checkpoints");
            config(manifest).put("execution.checkpointing.savepoint-dir", "s3a://lake/app-state/savepoints");
        });
        assertEquals(List.of(), ParqRules.violations(toTheStore));
        refused(ObjectStoreRules::violations, toTheStore, "from a Secret");
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

    private static ObjectNode objects(Consumer<ObjectNode> change) {
        return changed("ingest-s3.yaml", change);
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

    private static ObjectNode podSpec(ObjectNode manifest) {
        return (ObjectNode) spec(manifest).path("podTemplate").path("spec");
    }

    private static ObjectNode mainContainer(ObjectNode manifest) {
        return (ObjectNode) podSpec(manifest).path("containers").path(0);
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
