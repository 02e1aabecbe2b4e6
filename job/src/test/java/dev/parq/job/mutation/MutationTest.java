package dev.parq.job.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;

/**
 * The twins' defects still fit parq's classes, in the fast suite: the twins that use them run in the
 * long suite only, where a defect that no longer applies shows only as a twin whose check passed.
 */
class MutationTest {

    @ParameterizedTest
    @EnumSource(Mutation.class)
    void eachDefectChangesAMethodParqHas(Mutation mutation) throws Exception {
        ClassLoader loader = getClass().getClassLoader();
        TypeDescription type = TypeDescription.ForLoadedType.of(Class.forName(mutation.type(), false, loader));
        byte[] changed = mutation.applyTo(new ByteBuddy().rebase(type, ClassFileLocator.ForClassLoader.of(loader)), type)
                .make().getBytes();
        assertTrue(changed.length > 0, mutation.name());
    }

    @Test
    void theAgentJarNamesItsAgentAndHoldsItsClasses() throws Exception {
        String option = Mutation.PATH_IDENTITY.javaAgent();
        assertTrue(option.startsWith("-javaagent:") && option.endsWith("=PATH_IDENTITY"), option);
        Path jar = Path.of(option.substring("-javaagent:".length(), option.lastIndexOf('=')));
        try (JarFile agent = new JarFile(jar.toFile())) {
            Attributes manifest = agent.getManifest().getMainAttributes();
            assertEquals(MutationAgent.class.getName(), manifest.getValue("Premain-Class"));
            assertTrue(manifest.getValue(Attributes.Name.CLASS_PATH).contains("byte-buddy"), manifest.getValue("Class-Path"));
            assertTrue(agent.getEntry("dev/parq/job/mutation/DefectAdvice$IdentityByPath.class") != null);
            assertTrue(agent.stream().noneMatch(entry -> entry.getName().contains("Test")), "tests in the agent jar");
        }
    }
}
