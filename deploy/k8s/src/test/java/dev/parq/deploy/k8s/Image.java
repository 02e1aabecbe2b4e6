package dev.parq.deploy.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What deploy/k8s/Dockerfile puts in parq's image that the manifests rely on: where parq-job.jar is,
 * and which of Flink's file system plugins the image's entrypoint turns on
 * ({@code ENABLE_BUILT_IN_PLUGINS}, which a pod's environment may set otherwise).
 */
final class Image {

    static final String PLUGINS_VARIABLE = "ENABLE_BUILT_IN_PLUGINS";
    /** The URI schemes of Flink's S3 file system on Hadoop's S3A. */
    static final Set<String> S3_SCHEMES = Set.of("s3", "s3a");

    /** Where the Dockerfile puts parq-job.jar. */
    private static final Pattern JAR_COPY = Pattern.compile("(?m)^COPY\\s.*\\bjob/target/parq-job\\.jar\\s+(\\S+)\\s*$");
    private static final Pattern PLUGINS_ENV = Pattern.compile("(?m)^ENV\\s+" + PLUGINS_VARIABLE + "=(\\S+)\\s*$");
    /** The jar of the plugin that serves {@link #S3_SCHEMES}, by the start of its name. */
    private static final String S3_PLUGIN = "flink-s3-fs-hadoop-";

    private Image() {}

    /** The absolute path the Dockerfile copies parq-job.jar to. */
    static String jar() {
        return dockerfile(JAR_COPY, "copies no job/target/parq-job.jar");
    }

    /**
     * The URI schemes that a role's Flink container has a file system for beside the local one: the
     * S3 plugin's, if the image (or the role's environment, which wins) turns it on.
     */
    static Set<String> schemes(JsonNode manifest, String role) {
        return plugins(manifest, role).stream().anyMatch(plugin -> plugin.startsWith(S3_PLUGIN)) ? S3_SCHEMES : Set.of();
    }

    /** The plugin jars the image's entrypoint links into plugins/ of a role's container. */
    static List<String> plugins(JsonNode manifest, String role) {
        JsonNode variable = Manifests.environment(manifest, role).get(PLUGINS_VARIABLE);
        String plugins = variable != null ? variable.path("value").asText("")
                : dockerfile(PLUGINS_ENV, "sets no " + PLUGINS_VARIABLE);
        return Arrays.stream(plugins.split(";")).map(String::strip).filter(plugin -> !plugin.isEmpty()).toList();
    }

    private static String dockerfile(Pattern line, String otherwise) {
        Path dockerfile = Manifests.DIRECTORY.resolve("Dockerfile");
        try {
            Matcher match = line.matcher(Files.readString(dockerfile));
            if (!match.find()) {
                throw new AssertionError(dockerfile + " " + otherwise);
            }
            return match.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
