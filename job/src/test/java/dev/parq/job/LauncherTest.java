package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which command lines start their cluster before the command line is parsed, and for what parallelism. */
class LauncherTest {

    @Test
    void conversionsStartTheirClusterEarly() {
        assertEquals(0, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out"));
        assertEquals(0, Launcher.embeddedJobParallelism("tensor", "in.ndjson", "--columns", "a", "-o", "out.mmap"));
        assertEquals(3, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out", "-p", "3"));
        assertEquals(4, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-p4", "-o", "out"));
        assertEquals(5, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-p=5", "-o", "out"));
        assertEquals(6, Launcher.embeddedJobParallelism("convert", "--parallelism", "6", "in.ndjson", "-o", "out"));
        assertEquals(7, Launcher.embeddedJobParallelism("convert", "--parallelism=7", "in.ndjson", "-o", "out"));
    }

    @Test
    void otherCommandLinesDoNot() {
        assertEquals(-1, Launcher.embeddedJobParallelism());
        assertEquals(-1, Launcher.embeddedJobParallelism("schema", "in.ndjson"));
        assertEquals(-1, Launcher.embeddedJobParallelism("array", "info", "x.mmap"));
        assertEquals(-1, Launcher.embeddedJobParallelism("--help"));
        assertEquals(-1, Launcher.embeddedJobParallelism("convert", "--help"));
        assertEquals(-1, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out", "-V"));
        assertEquals(-1, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out", "-p", "lots"));
        assertEquals(-1, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out", "-p", "0"));
        assertEquals(-1, Launcher.embeddedJobParallelism("convert", "in.ndjson", "-o", "out", "-p"));
    }
}
