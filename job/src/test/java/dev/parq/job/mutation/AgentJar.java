package dev.parq.job.mutation;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import net.bytebuddy.ByteBuddy;

/**
 * The jar of {@link MutationAgent}, written from this package's compiled classes the first time a
 * test asks for it: the agent's classes and a manifest that names it and puts the Byte Buddy jar of
 * the test class path on the agent's.
 */
final class AgentJar {

    private static final Path JAR = Path.of("target", "mutation-agent", "parq-mutation-agent.jar").toAbsolutePath();
    private static final String PACKAGE = MutationAgent.class.getPackageName().replace('.', '/');

    private static final Set<PosixFilePermission> READABLE = PosixFilePermissions.fromString("rw-r--r--");

    private static boolean written;

    private AgentJar() {}

    /** The agent's jar, written if this JVM has not written it yet. */
    static synchronized Path path() {
        if (!written) {
            try {
                write();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + JAR, e);
            }
            written = true;
        }
        return JAR;
    }

    private static void write() throws IOException {
        Path classes = location(MutationAgent.class).resolve(PACKAGE);
        List<Path> agentClasses;
        try (Stream<Path> files = Files.list(classes)) {
            // This package's tests are compiled beside the agent; the child JVM needs none of them.
            agentClasses = files.filter(f -> f.getFileName().toString().endsWith(".class"))
                    .filter(f -> !f.getFileName().toString().matches(".*Test(\\$.*)?\\.class")).sorted().toList();
        }
        Manifest manifest = new Manifest();
        Attributes attributes = manifest.getMainAttributes();
        attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.put(new Attributes.Name("Premain-Class"), MutationAgent.class.getName());
        // Byte Buddy beside the agent, not in the local Maven repository: a process of another user
        // (a test that takes permissions away runs parq as nobody) reads neither root's home nor what is in it.
        Files.createDirectories(JAR.getParent());
        Path byteBuddy = JAR.resolveSibling("byte-buddy.jar");
        Path copy = Files.createTempFile(JAR.getParent(), "byte-buddy", ".jar.partial");
        Files.copy(location(ByteBuddy.class), copy, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, READABLE);
        // Test JVMs write it at once: each moves a whole copy into place, so no process opens half of one.
        Files.move(copy, byteBuddy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        attributes.put(Attributes.Name.CLASS_PATH, byteBuddy.getFileName().toString());
        Path partial = Files.createTempFile(JAR.getParent(), "agent", ".jar.partial");
        try (OutputStream file = Files.newOutputStream(partial);
                JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (Path agentClass : agentClasses) {
                jar.putNextEntry(new JarEntry(PACKAGE + "/" + agentClass.getFileName()));
                Files.copy(agentClass, jar);
                jar.closeEntry();
            }
        }
        Files.setPosixFilePermissions(partial, READABLE);
        Files.move(partial, JAR, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The class-path entry (directory or jar) that {@code type} was loaded from. */
    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no file for the code source of " + type, e);
        }
    }
}
