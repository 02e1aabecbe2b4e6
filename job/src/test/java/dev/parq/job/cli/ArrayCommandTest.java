package dev.parq.job.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parq.mmap.FloatArray;
import dev.parq.mmap.MmapArray;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ArrayCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = new CommandLine(new ArrayCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    /**
     * {@code parq array ...} builds the array commands alone: their usage, errors and version read
     * as in the whole command line model.
     */
    @Test
    void arrayCommandLinesNameTheirCommandsAsTheWholeModelDoes() throws Exception {
        String file = sampleFile().toString();
        for (String[] args : new String[][] {{"array", "stats", "--help"}, {"array", "info"}, {"array", "-V"}}) {
            StringWriter[] whole = {new StringWriter(), new StringWriter()};
            CommandLine full = Parq.commandLine();
            full.setOut(new PrintWriter(whole[0]));
            full.setErr(new PrintWriter(whole[1]));
            int wholeExit = full.execute(args);
            CommandLine arrays = Parq.commandLine(args);
            arrays.setOut(new PrintWriter(out));
            arrays.setErr(new PrintWriter(err));
            assertEquals(wholeExit, arrays.execute(args), String.join(" ", args));
            assertEquals(whole[0].toString(), out.toString(), String.join(" ", args));
            assertEquals(whole[1].toString(), err.toString(), String.join(" ", args));
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
        }
        CommandLine arrays = Parq.commandLine("array", "stats", file);
        arrays.setOut(new PrintWriter(out));
        assertEquals(0, arrays.execute("array", "stats", file));
        assertTrue(out.toString().startsWith("{\"count\": 6,"), out.toString());
        assertFalse(arrays.getSubcommands().containsKey("convert"));
    }

    /**
     * {@code parq array stats FILE} runs without the parser, printing what the parsed command
     * prints, with its exit code: for an array, for a file that is not one and for a missing
     * file. Any other command line goes to the parser.
     */
    @Test
    void statsWithoutTheParserAreTheParsedCommands() throws Exception {
        Path notAnArray = dir.resolve("text.mmap");
        Files.writeString(notAnArray, "hello world");
        for (String file : new String[] {sampleFile().toString(), notAnArray.toString(), dir.resolve("absent").toString()}) {
            String[] args = {"array", "stats", file};
            CommandLine parsed = Parq.commandLine(args);
            StringWriter[] parsedOutput = {new StringWriter(), new StringWriter()};
            parsed.setOut(new PrintWriter(parsedOutput[0]));
            parsed.setErr(new PrintWriter(parsedOutput[1]));
            int parsedExit = parsed.execute(args);
            assertEquals(parsedExit, ArrayCommand.statsWithoutParser(args, new PrintWriter(out), new PrintWriter(err)), file);
            assertEquals(parsedOutput[0].toString(), out.toString(), file);
            assertEquals(parsedOutput[1].toString(), err.toString(), file);
            assertTrue(parsedExit == 0 ? out.toString().startsWith("{\"count\": 6,") : err.toString().contains(file), file);
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
        }
        for (String[] args : new String[][] {{"array", "stats"}, {"array", "stats", "--help"}, {"array", "stats", "a", "b"},
                {"array", "info", "a"}, {"stats", "a", "b"}, {"convert", "stats", "a"}}) {
            assertEquals(-1, ArrayCommand.statsWithoutParser(args, new PrintWriter(out), new PrintWriter(err)), String.join(" ", args));
        }
        assertEquals("", out.toString() + err.toString());
    }

    @Test
    void versionIsTheParqVersion() {
        assertEquals(0, run("-V"));
        assertTrue(out.toString().startsWith("parq "), out.toString());
    }

    private Path sampleFile() throws Exception {
        Path file = dir.resolve("a.mmap");
        MmapArray.create(file, FloatArray.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3)).close();
        return file;
    }

    @Test
    void infoPrintsJson() throws Exception {
        Path file = sampleFile();
        assertEquals(0, run("info", file.toString()), err.toString());
        assertEquals("{\"path\": \"" + file + "\", \"dtype\": \"float32\", \"shape\": [2, 3],"
                + " \"strides\": [3, 1], \"bytes\": 24}", out.toString().trim());
    }

    @Test
    void statsPrintJson() throws Exception {
        assertEquals(0, run("stats", sampleFile().toString()), err.toString());
        assertEquals("{\"count\": 6, \"sum\": 21.0, \"min\": 1.0, \"max\": 6.0, \"mean\": 3.5}", out.toString().trim());
    }

    /** NaN elements are skipped; with none left, min, max and mean are null (JSON has no NaN). */
    @Test
    void statsSkipNaN() throws Exception {
        Path some = dir.resolve("some.mmap");
        MmapArray.create(some, FloatArray.of(new float[] {Float.NaN, 2, Float.NaN, -4})).close();
        Path none = dir.resolve("none.mmap");
        MmapArray.create(none, FloatArray.of(new float[] {Float.NaN, Float.NaN})).close();
        assertEquals(0, run("stats", some.toString()), err.toString());
        assertEquals(0, run("stats", none.toString()), err.toString());
        assertEquals("{\"count\": 2, \"sum\": -2.0, \"min\": -4.0, \"max\": 2.0, \"mean\": -1.0}\n"
                + "{\"count\": 0, \"sum\": 0.0, \"min\": null, \"max\": null, \"mean\": null}",
                out.toString().trim().replace("\r\n", "\n"));
    }

    @Test
    void convertsToNpyAndBack() throws Exception {
        Path file = sampleFile();
        Path npy = dir.resolve("a.npy");
        Path back = dir.resolve("b.mmap");
        assertEquals(0, run("to-npy", file.toString(), npy.toString()), err.toString());
        assertEquals(0, run("from-npy", npy.toString(), back.toString()), err.toString());
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(back));
    }

    @Test
    void failureIsExitOneWithOneLineAndNoStackTrace() throws Exception {
        Path notAnArray = dir.resolve("text.mmap");
        Files.writeString(notAnArray, "hello world");
        assertEquals(1, run("info", notAnArray.toString()));
        String message = err.toString();
        assertTrue(message.contains("INVALID_MAGIC") && message.contains(notAnArray.toString()), message);
        assertFalse(message.contains("\tat "), message);
        assertEquals("", out.toString());

        assertEquals(1, run("from-npy", dir.resolve("absent.npy").toString(), dir.resolve("x").toString()));
        assertFalse(err.toString().contains("\tat "), err.toString());
    }

    @Test
    void usageErrorsAreExitTwo() {
        assertEquals(2, run());
        assertEquals(2, run("info"));
        assertEquals(2, run("nonsense"));
        assertEquals(2, run("to-npy", "only-one-argument"));
    }
}
