package dev.parq.job.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink job with nothing of parq in it, submitted with {@code flink run} to tell a broken
 * cluster from a broken parq job: it sums 1..1000 on the TaskManager and prints {@code sum 500500}.
 */
public final class SmokeJob {

    public static final String NAME = "cluster smoke test";

    private SmokeJob() {}

    /** Writes a jar holding only this class, with it as the jar's main class. */
    public static Path writeJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, SmokeJob.class.getName());
        String entry = SmokeJob.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest);
                InputStream classFile = SmokeJob.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            classFile.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        long sum = 0;
        try (CloseableIterator<Long> numbers = env.fromSequence(1, 1000).executeAndCollect(NAME)) {
            while (numbers.hasNext()) {
                sum += numbers.next();
            }
        }
        System.out.println("sum " + sum);
    }
}
