package dev.parq.job.cli;

import dev.parq.mmap.MmapArray;
import dev.parq.mmap.MmapArrayException;
import dev.parq.mmap.Npy;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code parq array ...}: inspect mmap array files and convert them to and from numpy's
 * {@code .npy}. A thin layer over {@code dev.parq.mmap}; exit codes are 0 on success, 1 on a
 * failure (one line on stderr, no stack trace) and 2 on a usage error.
 */
@Command(
        name = "array",
        description = "Inspects mmap arrays; converts them to and from numpy .npy files.",
        mixinStandardHelpOptions = true,
        versionProvider = Parq.Version.class,
        subcommands = {ArrayCommand.Info.class, ArrayCommand.Stats.class, ArrayCommand.FromNpy.class,
                ArrayCommand.ToNpy.class})
public final class ArrayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: info, stats, from-npy or to-npy");
    }

    /** Runs an action, turning a library failure into exit code 1 and one line on stderr. */
    private static int report(CommandSpec spec, Action action) {
        return report(spec.name(), spec.commandLine().getErr(), action);
    }

    private static int report(String command, PrintWriter err, Action action) {
        try {
            action.run();
            return 0;
        } catch (MmapArrayException e) {
            err.println("parq array " + command + ": " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    /**
     * The exit code of {@code parq array stats FILE} run without the command-line parser, or -1
     * when {@code args} is any other command line, which the parser must read. Building even the
     * array commands' model takes picocli about 0.2 s, and a scan of a file already in the page
     * cache runs at memory speed: that start-up would be a sixth of a 4 GiB scan's time. What
     * is printed and the exit code are those of the parsed command.
     */
    public static int statsWithoutParser(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length != 3 || !args[0].equals("array") || !args[1].equals("stats")
                || args[2].startsWith("-") || args[2].indexOf('\0') >= 0) {
            return -1;
        }
        return printStats(Path.of(args[2]), out, err);
    }

    private static int printStats(Path file, PrintWriter out, PrintWriter err) {
        return report("stats", err, () -> {
            try (MmapArray<?> array = MmapArray.openReadOnly(file)) {
                dev.parq.mmap.Stats stats = array.view().stats();
                out.println("{\"count\": " + stats.count() + ", \"sum\": " + jsonNumber(stats.sum())
                        + ", \"min\": " + jsonNumber(stats.min()) + ", \"max\": " + jsonNumber(stats.max())
                        + ", \"mean\": " + jsonNumber(stats.mean()) + "}");
                out.flush();
            }
        });
    }

    private interface Action {
        void run() throws MmapArrayException;
    }

    @Command(name = "info", mixinStandardHelpOptions = true, versionProvider = Parq.Version.class,
            description = "Print dtype, shape, strides (in elements) and data bytes of an mmap array file as JSON.")
    static final class Info implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "FILE", description = "The mmap array file.")
        Path file;

        @Override
        public Integer call() {
            return report(spec, () -> {
                try (MmapArray<?> array = MmapArray.openReadOnly(file)) {
                    PrintWriter out = spec.commandLine().getOut();
                    out.println("{\"path\": " + jsonString(file.toString())
                            + ", \"dtype\": " + jsonString(array.dtype().name())
                            + ", \"shape\": " + jsonArray(array.shape())
                            + ", \"strides\": " + jsonArray(array.strides())
                            + ", \"bytes\": " + array.dataBytes() + "}");
                    out.flush();
                }
            });
        }
    }

    @Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = Parq.Version.class,
            description = "Print count, sum, min, max and mean of an mmap array file's elements as JSON. NaN"
                    + " elements are skipped (as numpy's nansum, nanmin, nanmax): count is the elements that"
                    + " are not NaN, the sum is accumulated in double; min, max and mean are null without any.")
    static final class Stats implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "FILE", description = "The mmap array file.")
        Path file;

        @Override
        public Integer call() {
            return printStats(file, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }

    /** A double as JSON: shortest round-trip digits; NaN (no value) as null, infinities as JSON cannot hold them. */
    private static String jsonNumber(double value) {
        if (Double.isNaN(value)) {
            return "null";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "1e999" : "-1e999";
        }
        return Double.toString(value);
    }

    @Command(name = "from-npy", mixinStandardHelpOptions = true, versionProvider = Parq.Version.class,
            description = "Convert a C-order little-endian .npy file (float32, float64, int32, int64) to an mmap array file.")
    static final class FromNpy implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "IN.npy", description = "The .npy file to read.")
        Path input;

        @Parameters(index = "1", paramLabel = "OUT.mmap", description = "The mmap array file to write.")
        Path output;

        @Override
        public Integer call() {
            return report(spec, () -> Npy.toMmap(input, output));
        }
    }

    @Command(name = "to-npy", mixinStandardHelpOptions = true, versionProvider = Parq.Version.class,
            description = "Convert an mmap array file to a .npy file (format 1.0) that np.load reads.")
    static final class ToNpy implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "IN.mmap", description = "The mmap array file to read.")
        Path input;

        @Parameters(index = "1", paramLabel = "OUT.npy", description = "The .npy file to write.")
        Path output;

        @Override
        public Integer call() {
            return report(spec, () -> Npy.fromMmap(input, output));
        }
    }

    private static String jsonArray(long[] values) {
        return LongStream.of(values).mapToObj(Long::toString).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String jsonString(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }
}
