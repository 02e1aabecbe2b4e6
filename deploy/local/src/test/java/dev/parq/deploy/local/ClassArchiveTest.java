package dev.parq.deploy.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {

    private static final String MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final List<String> OPTIONS = List.of("-Xmx1g", "-XX:+UseParallelGC");

    @TempDir
    Path dir;

    private Path jar;
    private ClassArchive archive;

    @BeforeEach
    void aClusterDirectoryWithAJar() throws IOException {
        Files.createDirectories(dir.resolve("lib"));
        jar = Files.write(dir.resolve("lib").resolve("parq-job.jar"), new byte[] {1, 2, 3});
        archive = new ClassArchive(new ClusterDir(dir), true);
    }

    @Test
    void withoutAnArchiveAProcessIsReadiedToRecordOne() throws IOException {
        List<String> options = archive.options("taskmanager-1", "taskmanager", MAIN, OPTIONS, List.of(dir.resolve("lib")));

        assertEquals(List.of("-XX:+RecordDynamicDumpInfo", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), options);
        String pending = Files.readString(dir.resolve("cds").resolve("taskmanager-1.pending"));
        assertTrue(pending.startsWith("taskmanager-jdk" + Runtime.version() + "-") && pending.endsWith(".jsa"), pending);
    }

    @Test
    void anArchiveOfTheSameClassPathIsMapped() throws IOException {
        Path recorded = dir.resolve("cds").resolve(recordingName());
        Files.write(recorded, new byte[] {0});

        List<String> options = archive.options("taskmanager-2", "taskmanager", MAIN, OPTIONS, List.of(dir.resolve("lib")));

        assertEquals(List.of("-XX:SharedArchiveFile=" + recorded, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), options);
    }

    @Test
    void aJarOfAnotherModificationTimeOrOtherOptionsNeedAnotherArchive() throws IOException {
        String first = recordingName();
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        assertNotEquals(first, recordingName());
        String otherTime = recordingName();
        archive.options("taskmanager-1", "taskmanager", MAIN, List.of("-Xmx2g"), List.of(dir.resolve("lib")));
        assertNotEquals(otherTime, Files.readString(dir.resolve("cds").resolve("taskmanager-1.pending")));
    }

    @Test
    void aStopWithoutAFinishedJobRecordsNothing() throws IOException {
        archive.options("taskmanager-1", "taskmanager", MAIN, OPTIONS, List.of(dir.resolve("lib")));

        archive.record(Map.of("taskmanager-1", ProcessHandle.current()), () -> false);

        try (Stream<Path> left = Files.list(dir.resolve("cds"))) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void noOptionsWhenSwitchedOffOrWhenTheJvmOptionsChooseThemselves() throws IOException {
        ClassArchive off = new ClassArchive(new ClusterDir(dir), false);
        assertEquals(List.of(), off.options("jobmanager", "jobmanager", MAIN, OPTIONS, List.of(dir.resolve("lib"))));
        assertEquals(List.of(), archive.options("jobmanager", "jobmanager", MAIN, List.of("-Xshare:off"), List.of(dir.resolve("lib"))));
        assertEquals(List.of(), archive.options("jobmanager", "jobmanager", MAIN,
                List.of("-XX:SharedArchiveFile=/opt/flink/jm.jsa"), List.of(dir.resolve("lib"))));
    }

    private String recordingName() throws IOException {
        archive.options("taskmanager-9", "taskmanager", MAIN, OPTIONS, List.of(dir.resolve("lib")));
        Path pending = dir.resolve("cds").resolve("taskmanager-9.pending");
        String name = Files.readString(pending);
        Files.delete(pending);
        return name;
    }
}
