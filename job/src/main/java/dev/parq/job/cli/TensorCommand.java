package dev.parq.job.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.TensorRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code parq tensor INPUT... --columns a,b -o OUT.mmap}: numeric fields as a 2-D mmap array. */
@Command(
        name = "tensor",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes numeric NDJSON fields as a 2-D mmap array for numpy.",
            "The array is [rows, columns]: the --columns fields of each record, rows in input order"
                    + " (file, then byte offset); numpy or PyTorch memory-map it without a copy.",
            "A null or missing field is NaN; a non-numeric one makes the line bad: with --on-error reject"
                    + " it goes to OUT.rejected/.",
            "Options not given are read from $FLINK_CONF_DIR/config.yaml (parq.* keys), then defaulted."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:failed (bad line with --on-error fail, I/O error, counts that do not add up)",
            "2:usage error (bad option, missing input or --columns, existing output without --overwrite)"})
public final class TensorCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PipelineFlags pipeline;

    @Option(names = "--columns", required = true, paramLabel = "A,B,...",
            description = "Numeric fields, in column order; nested fields as dotted paths: 'latency,user.id'.")
    String columns;

    @Option(names = "--dtype", paramLabel = "TYPE", description = "float32 or float64. Default: " + ParqOptions.TENSOR_DTYPE_DEFAULT + ".")
    String dtype;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT.mmap",
            description = "The array file (must not exist unless --overwrite).")
    String output;

    @Override
    public Integer call() {
        return pipeline.run(spec, this::configuration, TensorRun::run, TensorCommand::printSummary);
    }

    static void printSummary(TensorRun.Result result, PrintStream out) {
        out.printf(Locale.ROOT, "parq: wrote a %s x %d %s array in %s%n", Units.count(result.rows()),
                result.columns().size(), result.dtype(), Units.duration(result.elapsedMs()));
        out.printf("  records read   %s%n", Units.count(result.recordsIn()));
        out.printf("  rows           %s%n", Units.count(result.rows()));
        out.printf("  columns        %s%n", String.join(", ", result.columns()));
        out.printf("  dtype          %s%n", result.dtype());
        out.printf("  rejected       %s%s%n", Units.count(result.rejected()),
                result.rejected() > 0 ? "  -> " + result.rejectedDir() : "");
        out.printf("  array          %s%n", result.output());
        out.printf("  numpy          %s%n", numpyLine(result));
    }

    /** How to open the array with numpy, as one line of Python. */
    static String numpyLine(TensorRun.Result result) {
        String path = result.output().toString().replace("\\", "\\\\").replace("'", "\\'");
        return String.format(Locale.ROOT, "np.memmap('%s', dtype='%s', mode='r', offset=64, shape=(%d, %d))",
                path, result.dtype().npyDescr(), result.rows(), result.columns().size());
    }

    /** The Flink configuration (parq.* keys included), overridden by the flags given. */
    Configuration configuration() throws ConversionException {
        Configuration config = pipeline.configuration(output);
        config.set(ParqOptions.TENSOR_COLUMNS, columns);
        if (dtype != null) {
            config.set(ParqOptions.TENSOR_DTYPE, dtype);
        }
        return config;
    }
}
