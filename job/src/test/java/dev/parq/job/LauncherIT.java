package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.testing.DuckDb;

/** The embedded jar as a user runs it: a separate {@code java -jar parq.jar} process. */
class LauncherIT {

    private static final Path JAR = ParqJar.JAR;
    private static final Path SAMPLE = Path.of("..", "examples", "app-logs.ndjson").toAbsolutePath().normalize();
    private static final Path LAUNCHER = Path.of("..", "parq").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private ParqJar.Run parq(String... args) throws IOException, InterruptedException {
        return parqWithHeap("768m", args);
    }

    private ParqJar.Run parqWithHeap(String heap, String... args) throws IOException, InterruptedException {
        return ParqJar.run(dir, heap, args);
    }

    @Test
    void helpTellsTheCommandsAndOptions() throws Exception {
        ParqJar.Run top = parq("--help");
        assertEquals(0, top.exit(), top.err());
        assertTrue(top.out().contains("convert") && top.out().contains("schema") && top.out().contains("array"), top.out());
        ParqJar.Run convert = parq("convert", "--help");
        assertEquals(0, convert.exit());
        for (String option : List.of("--output", "--schema", "--compression", "--row-group-size", "--split-size",
                "--parallelism", "--on-error", "--overwrite")) {
            assertTrue(convert.out().contains(option), option + " in\n" + convert.out());
        }
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        ParqJar.Run noOutput = parq("convert", SAMPLE.toString());
        assertEquals(2, noOutput.exit());
        assertTrue(noOutput.err().contains("--output"), noOutput.err());
        ParqJar.Run missing = parq("convert", dir.resolve("nope.ndjson").toString(), "-o", dir.resolve("out").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("input not found"), missing.err());
        ParqJar.Run badCodec = parq("convert", SAMPLE.toString(), "-o", dir.resolve("out").toString(), "--compression", "brotli9");
        assertEquals(2, badCodec.exit(), badCodec.err());
        ParqJar.Run badSize = parq("convert", SAMPLE.toString(), "-o", dir.resolve("out").toString(), "--split-size", "lots");
        assertEquals(2, badSize.exit(), badSize.err());
    }

    @Test
    void convertsTheShippedSampleAndInfersItsSchema() throws Exception {
        ParqJar.Run schema = parq("schema", SAMPLE.toString());
        assertEquals(0, schema.exit(), schema.err());
        assertTrue(schema.out().contains("ts TIMESTAMP_LTZ(3)"), schema.out());
        assertTrue(schema.out().contains("`user` ROW<id BIGINT, name STRING, country STRING>")
                || schema.out().contains("user ROW<id BIGINT, name STRING, country STRING>"), schema.out());

        Path output = dir.resolve("out");
        ParqJar.Run convert = parq("convert", SAMPLE.toString(), "-o", output.toString(), "--compression", "zstd");
        assertEquals(0, convert.exit(), convert.err());
        assertTrue(convert.out().contains("rows written   500"), convert.out());
        assertEquals(500, DuckDb.count(DuckDb.parquet(output)));
        assertEquals("ZSTD", DuckDb.query("SELECT DISTINCT compression FROM parquet_metadata('"
                + output.resolve("*.parquet") + "')").get(0).get(0));
        long errors = DuckDb.count(DuckDb.parquet(output) + " WHERE error.code IS NOT NULL");
        assertEquals(Files.readAllLines(SAMPLE).stream().filter(l -> l.contains("\"error\"")).count(), errors);
    }
    /**
     * The launcher hands the JIT its compiler directives, and keeps the line the JVM prints about
     * them out of parq's output; with the JVM's output shown again, the line is there.
     */
    @Test
    void launcherGivesTheJitItsDirectivesQuietly() throws Exception {
        for (boolean shown : new boolean[] {false, true}) {
            ProcessBuilder builder = new ProcessBuilder(LAUNCHER.toString(), "--version")
                    .redirectOutput(dir.resolve("stdout").toFile())
                    .redirectError(dir.resolve("stderr").toFile());
            builder.environment().put("PARQ_JAVA_OPTS", shown ? "-Xmx256m -XX:+DisplayVMOutput" : "-Xmx256m");
            Process process = builder.start();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "parq did not finish");
            String out = Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
            assertEquals(shown, out.contains("compiler directives added"), out);
            assertTrue(out.contains("parq"), out);
        }
    }

    /**
     * Less than 512 MiB of input runs with the quick JIT compiler alone; more (here a sparse file
     * of 600 MiB, which help never reads) gets the directives. The launcher shows its java command
     * line when PARQ_SHOW_JAVA is set.
     */
    @Test
    void launcherPicksTheJitByTheSizeOfTheInput() throws Exception {
        Path large = dir.resolve("large.ndjson");
        try (RandomAccessFile file = new RandomAccessFile(large.toFile(), "rw")) {
            file.setLength(600L << 20);
        }
        assertTrue(javaCommand("convert", SAMPLE.toString(), "-o", dir.resolve("a").toString(), "--help")
                .contains(" -XX:TieredStopAtLevel=1 "));
        for (String[] args : List.of(
                new String[] {"convert", large.toString(), "-o", dir.resolve("b").toString(), "--help"},
                new String[] {"convert", SAMPLE.toString(), large.toString(), "-o", dir.resolve("c").toString(), "--help"},
                new String[] {"convert", "no-such-" + SAMPLE.getFileName(), "-o", dir.resolve("d").toString(), "--help"},
                new String[] {"--version"})) {
            String command = javaCommand(args);
            assertTrue(command.contains("-XX:CompilerDirectivesFile=") && !command.contains("TieredStopAtLevel"),
                    String.join(" ", args) + ":\n" + command);
        }
    }

    /** The java command line the launcher reports for these arguments. */
    private String javaCommand(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().put("PARQ_SHOW_JAVA", "1");
        builder.environment().remove("PARQ_JAVA_OPTS");
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "parq did not finish");
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), err);
        return err.lines().filter(line -> line.startsWith("parq: ") && line.contains(" -jar "))
                .findFirst().orElseThrow(() -> new AssertionError("no java command line in\n" + err));
    }

    /**
     * Flink's log stays out of a plain run (log4j-core does not even start then), and PARQ_LOG_LEVEL
     * brings it back, at the level asked for, through log4j-core.
     */
    @Test
    void flinksLogIsShownOnlyWhenParqLogLevelAsks() throws Exception {
        for (String level : new String[] {null, "off", "INFO"}) {
            // The loaded classes go to a file of their own: on stdout the JVM's lines can land in
            // the middle of parq's.
            Path classes = dir.resolve("classes-" + level + ".log");
            List<String> command = ParqJar.java("-Xmx768m", "-Xlog:class+load=info:file=" + classes, "-jar", JAR.toString());
            command.addAll(List.of("convert", SAMPLE.toString(), "-o", dir.resolve("out-" + level).toString(), "--no-progress"));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(dir.resolve("stdout").toFile())
                    .redirectError(dir.resolve("stderr").toFile());
            builder.environment().remove("PARQ_LOG_LEVEL");
            if (level != null) {
                builder.environment().put("PARQ_LOG_LEVEL", level);
            }
            Process process = builder.start();
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "parq did not finish");
            String out = Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8);
            String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), err);
            assertTrue(out.contains("rows written   500"), out);
            boolean logged = "INFO".equals(level);
            String flinkLogLine = "INFO  org.apache.flink.";
            assertEquals(logged, (out + err).contains(flinkLogLine), level + ":\n" + err);
            assertEquals(logged, Files.readString(classes, StandardCharsets.UTF_8)
                    .contains("org.apache.logging.log4j.core.LoggerContext "), level + ": log4j-core started");
        }
    }

    @Test
    void anUnreadableConfigurationFileIsAUsageErrorThatNamesIt() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(conf.resolve("config.yaml"), "parq.on-error: [fail\n  : : {{\n");
        ProcessBuilder builder = new ProcessBuilder("java", "-jar", JAR.toString(), "convert", SAMPLE.toString(),
                "-o", dir.resolve("out").toString())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "parq did not finish");
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        assertEquals(2, process.exitValue(), err);
        assertTrue(err.startsWith("cannot read the Flink configuration in " + conf), err);
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
    }

    /**
     * A conversion stopped with SIGTERM (as Ctrl-C or a container's stop would) while its writers
     * hold unfinished part files says so and removes the output directory it created, so that the
     * same command can run again.
     */
    @Test
    void aStoppedConversionRemovesItsUnfinishedOutput() throws Exception {
        Path output = dir.resolve("out");
        // Slow writers keep the job running until the test stops it.
        ProcessBuilder builder = new ProcessBuilder(SlowWriterConversion.command(SAMPLE, output, 500, 64, 2, null))
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (inProgressFiles(output).isEmpty()) {
            assertTrue(process.isAlive(), "parq ended before it was stopped: "
                    + Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
            assertTrue(System.nanoTime() < deadline, "no part file was started within a minute");
            Thread.sleep(50);
        }
        process.destroy();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "parq did not stop");
        String err = Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        assertEquals(143, process.exitValue(), err);
        assertTrue(err.contains("parq: stopped before the conversion finished; its unfinished output in " + output
                + " was removed"), err);
        assertFalse(Files.exists(output), "the output directory is still there");
    }

    /**
     * A line longer than a sixteenth of the heap fails the conversion, even with --on-error reject,
     * with a message that names it and the heap that would take it, rather than running out of
     * memory somewhere in the writer.
     */
    @Test
    void aLineTooLongForTheHeapIsNamedWithTheHeapItNeeds() throws Exception {
        Path input = dir.resolve("long-line.ndjson");
        String first = "{\"id\":1,\"s\":\"a\"}\n";
        String longLine = "{\"id\":2,\"s\":\"" + "x".repeat(12 << 20) + "\"}\n";
        Files.writeString(input, first + longLine + first, StandardCharsets.US_ASCII);
        Path output = dir.resolve("out");
        ParqJar.Run run = parqWithHeap("128m", "convert", input.toString(), "-o", output.toString(),
                "--schema", "id BIGINT, s STRING", "--on-error", "reject", "--no-progress");
        String err = run.err();
        assertEquals(1, run.exit(), err);
        assertTrue(err.startsWith("parq: " + input + ": bad line at byte " + first.length() + ": the line is "
                + String.format(Locale.ROOT, "%,d", longLine.length()) + " bytes long, and this JVM takes lines of up to"),
                err);
        assertTrue(err.contains("PARQ_JAVA_OPTS=-Xmx1g"), err);
        assertFalse(err.contains("OutOfMemoryError"), err);
        assertFalse(Files.exists(output));
    }

    /**
     * A tensor run that fails after it began writing rejected lines leaves neither those unfinished
     * files nor its segments behind, so that it can run again without --overwrite.
     */
    @Test
    void aFailedTensorRunLeavesNoRejectedOrSegmentFilesBehind() throws Exception {
        Path input = dir.resolve("tensor-input.ndjson");
        StringBuilder text = new StringBuilder("{\"x\":\"not a number\"}\n");
        for (int i = 0; i < 20_000; i++) {
            text.append("{\"x\":").append(i).append("}\n");
        }
        text.append("{\"x\":1,\"pad\":\"").append("p".repeat(12 << 20)).append("\"}\n");
        Files.writeString(input, text, StandardCharsets.US_ASCII);
        Path output = dir.resolve("array.mmap");
        ParqJar.Run run = parqWithHeap("128m", "tensor", input.toString(), "-o", output.toString(), "--columns", "x",
                "--on-error", "reject", "--no-progress");
        String err = run.err();
        assertEquals(1, run.exit(), err);
        assertTrue(err.contains(": bad line at byte " + (text.length() - (12 << 20) - 17) + ": the line is "), err);
        try (Stream<Path> left = Files.list(dir)) {
            List<String> names = left.map(f -> f.getFileName().toString()).toList();
            assertFalse(names.contains("array.mmap.rejected"), names.toString());
            assertFalse(names.contains(".array.mmap.segments"), names.toString());
            assertFalse(names.contains("array.mmap"), names.toString());
        }
    }

    private static List<Path> inProgressFiles(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().contains(".inprogress.")).toList();
        }
    }

    /** {@code ./parq} on the JDK that runs this test, named by JAVA_HOME: a class data sharing archive. */
    @Test
    void launcherRecordsItsStartUpCacheOnceAndStartsFromIt() throws Exception {
        launcherTwice(Path.of(System.getProperty("java.home")));
    }

    /** {@code ./parq} on JDK 25 or later, where the start-up cache is an AOT cache with method profiles. */
    @Test
    void launcherUsesAnAotCacheOnJdk25AndLater() throws Exception {
        Optional<Path> jdk = installedJdk(25);
        assumeTrue(jdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm");
        launcherTwice(jdk.get());
    }

    /**
     * Converts the sample twice with the launcher: the first run records the start-up cache for
     * that JDK build next to the jar, the second starts from it; both print parq's output alone.
     */
    private void launcherTwice(Path javaHome) throws Exception {
        int feature = Integer.parseInt(release(javaHome, "JAVA_VERSION").split("[.]")[0]);
        Path cache = JAR.resolveSibling("parq-jdk" + release(javaHome, "JAVA_RUNTIME_VERSION")
                + (feature >= 25 ? ".aot" : ".jsa"));
        Files.deleteIfExists(cache);

        // Neither help nor a failed conversion loads what a conversion does: they record nothing.
        ProcessBuilder help = new ProcessBuilder(LAUNCHER.toString(), "convert", "--help")
                .redirectOutput(dir.resolve("help").toFile()).redirectErrorStream(true);
        help.environment().put("JAVA_HOME", javaHome.toString());
        help.environment().remove("PARQ_NO_CDS");
        assertEquals(0, help.start().waitFor());
        ProcessBuilder failing = new ProcessBuilder(LAUNCHER.toString(), "convert", dir.resolve("missing.ndjson").toString(),
                "-o", dir.resolve("never").toString())
                .redirectOutput(dir.resolve("failing").toFile()).redirectErrorStream(true);
        failing.environment().put("JAVA_HOME", javaHome.toString());
        failing.environment().remove("PARQ_NO_CDS");
        assertEquals(2, failing.start().waitFor());
        assertFalse(Files.exists(cache), "recorded by help or a failed conversion: " + cache);

        ParqJar.Run first = launcher(javaHome, dir.resolve("first"));
        assertTrue(Files.isRegularFile(cache), "no start-up cache at " + cache + "\n" + first.err());
        assertTrue(Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(JAR)) > 0);
        var recorded = Files.getLastModifiedTime(cache);

        launcher(javaHome, dir.resolve("second"));
        assertEquals(recorded, Files.getLastModifiedTime(cache), "the second run recorded the cache again");
        assertEquals(500, DuckDb.count(DuckDb.parquet(dir.resolve("second"))));
    }

    private ParqJar.Run launcher(Path javaHome, Path output) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(LAUNCHER.toString(), "convert", SAMPLE.toString(), "-o", output.toString())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().remove("PARQ_JAVA_OPTS");
        builder.environment().remove("PARQ_NO_CDS");
        // A temporary directory of this run's own: other tests' clusters run beside it.
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        builder.environment().put("TMPDIR", tmp.toString());
        Set<String> tmpBefore = clusterLeftovers(tmp);
        Process process = builder.start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "parq did not finish");
        Set<String> left = clusterLeftovers(tmp);
        left.removeAll(tmpBefore);
        assertEquals(Set.of(), left, "left behind in " + tmp);
        ParqJar.Run run = new ParqJar.Run(process.exitValue(),
                Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("parq: converted"), run.out());
        assertTrue(run.out().contains("rows written   500"), run.out());
        assertFalse(run.out().contains("AOT") || run.err().contains("WARNING"), run.out() + run.err());
        return run;
    }

    /** What an embedded Flink cluster may leave in the temporary directory {@code tmp} if it is not cleaned up. */
    private static Set<String> clusterLeftovers(Path tmp) throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.map(path -> path.getFileName().toString())
                    .filter(name -> name.startsWith("minicluster_") || name.startsWith("parq-cluster-")
                            || name.startsWith("flink-rpc-akka"))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    private static String release(Path javaHome, String key) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + key + "=\"([^\"]*)\"").matcher(Files.readString(javaHome.resolve("release")));
        assertTrue(m.find(), key + " in " + javaHome.resolve("release"));
        return m.group(1);
    }

    private static Optional<Path> installedJdk(int minimumFeature) throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(home -> Files.isRegularFile(home.resolve("release")) && Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> {
                        try {
                            return Integer.parseInt(release(home, "JAVA_VERSION").split("[.]")[0]) >= minimumFeature;
                        } catch (IOException | NumberFormatException e) {
                            return false;
                        }
                    })
                    .sorted()
                    .findFirst();
        }
    }
}
