package dev.parq.mmap.bench;

import dev.parq.mmap.DType;
import dev.parq.mmap.FloatArray;
import dev.parq.mmap.MmapArray;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Sums a float32 mmap array file sequentially through a {@link FloatArray} view, element by
 * element and in bulk blocks, and with numpy's {@code np.memmap(...).sum()} on the same file,
 * printing GB/s (median of 3 runs after 3 warm-up runs, page cache warm). Not part of
 * {@code mvn test}; run with {@code mmap/bench/sum.sh}.
 *
 * <p>{@code create FILE GIB} writes the file through {@link MmapArray}; {@code run FILE} measures
 * in a fresh JVM, so that neither the creation's dirty pages nor its profile skew the figures.
 */
public final class SumBenchmark {

    private static final int RUNS = 3;
    private static final int BLOCK = 1 << 16;
    /** Enough for C2 to compile the loop and for the page tables of the mapping to fill. */
    private static final int WARM_UP_RUNS = 3;

    private SumBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("create")) {
            long elements = (Long.parseLong(args[2]) << 30) / Float.BYTES;
            System.out.printf("creating %s: %d float32 elements%n", args[1], elements);
            createFile(Path.of(args[1]), elements);
        } else if (args.length == 2 && args[0].equals("run")) {
            Path file = Path.of(args[1]);
            double elementGbs = benchmarkJava(file, "get(i)", SumBenchmark::sum);
            double blockGbs = benchmarkJava(file, "blocks", SumBenchmark::sumBlocks);
            double numpyGbs = benchmarkNumpy(file);
            System.out.printf(Locale.ROOT, "java  view.get(i) per element:   %.2f GB/s%n", elementGbs);
            System.out.printf(Locale.ROOT, "java  view.get(i, float[], ..):  %.2f GB/s%n", blockGbs);
            System.out.printf(Locale.ROOT, "numpy np.memmap(...).sum():      %.2f GB/s%n", numpyGbs);
        } else {
            System.err.println("usage: SumBenchmark create FILE GIB | SumBenchmark run FILE");
            System.exit(2);
        }
    }

    private static void createFile(Path file, long elements) throws Exception {
        ByteBuffer header = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        header.put("MMAP".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 1);
        header.putShort((short) 1).putLong(elements).putLong(elements);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.write(header.array());
            raf.setLength(64 + elements * Float.BYTES);
        }
        try (MmapArray<FloatArray> array = MmapArray.openReadWrite(file, DType.FLOAT32)) {
            FloatArray view = array.viewMut();
            float[] block = new float[BLOCK];
            for (long start = 0; start < elements; start += BLOCK) {
                int count = (int) Math.min(BLOCK, elements - start);
                for (int i = 0; i < count; i++) {
                    block[i] = ((start + i) % 1000) * 0.001f;
                }
                view.set(start, block, 0, count);
            }
            array.flush();
        }
    }

    private static double benchmarkJava(Path file, String name, ToDoubleFunction<FloatArray> sum)
            throws Exception {
        try (MmapArray<FloatArray> array = MmapArray.openReadOnly(file, DType.FLOAT32)) {
            FloatArray view = array.view();
            double bytes = array.dataBytes();
            double[] gbs = new double[RUNS];
            for (int warmUp = 0; warmUp < WARM_UP_RUNS; warmUp++) {
                sum.applyAsDouble(view);
            }
            for (int run = 0; run < RUNS; run++) {
                long start = System.nanoTime();
                double total = sum.applyAsDouble(view);
                long nanos = System.nanoTime() - start;
                gbs[run] = bytes / nanos;
                System.out.printf(Locale.ROOT, "java  %s run %d: sum=%.6g in %.3f s%n", name, run, total, nanos / 1e9);
            }
            Arrays.sort(gbs);
            return gbs[RUNS / 2];
        }
    }

    /** Four accumulators so that the loop is bound by loads, not by the latency of one add chain. */
    private static double sum(FloatArray view) {
        long length = view.length();
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        long i = 0;
        for (; i + 3 < length; i += 4) {
            s0 += view.get(i);
            s1 += view.get(i + 1);
            s2 += view.get(i + 2);
            s3 += view.get(i + 3);
        }
        for (; i < length; i++) {
            s0 += view.get(i);
        }
        return s0 + s1 + s2 + s3;
    }

    /** Bulk reads of 64 Ki elements into one heap block, summed like {@link #sum}. */
    private static double sumBlocks(FloatArray view) {
        float[] block = new float[BLOCK];
        long length = view.length();
        double total = 0;
        for (long start = 0; start < length; start += BLOCK) {
            int count = (int) Math.min(BLOCK, length - start);
            view.get(start, block, 0, count);
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            int i = 0;
            for (; i + 3 < count; i += 4) {
                s0 += block[i];
                s1 += block[i + 1];
                s2 += block[i + 2];
                s3 += block[i + 3];
            }
            for (; i < count; i++) {
                s0 += block[i];
            }
            total += s0 + s1 + s2 + s3;
        }
        return total;
    }

    private static double benchmarkNumpy(Path file) throws IOException, InterruptedException {
        String script = String.join("\n",
                "import sys, time, statistics, numpy as np",
                "path = sys.argv[1]",
                "n = (np.fromfile(path, dtype='<u8', count=2, offset=8))[0]",
                "a = np.memmap(path, dtype='<f4', mode='r', offset=64, shape=(int(n),))",
                "for warm_up in range(3): a.sum()",
                "rates = []",
                "for run in range(3):",
                "    start = time.perf_counter(); total = a.sum(); elapsed = time.perf_counter() - start",
                "    print('numpy run %d: sum=%.6g in %.3f s' % (run, total, elapsed), flush=True)",
                "    rates.append(a.nbytes / elapsed / 1e9)",
                "print(statistics.median(rates))");
        Process process = new ProcessBuilder("python3", "-c", script, file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String[] lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .trim().split("\n");
        if (process.waitFor() != 0) {
            throw new IOException("numpy benchmark failed: " + String.join("\n", lines));
        }
        for (int line = 0; line < lines.length - 1; line++) {
            System.out.println(lines[line]);
        }
        return Double.parseDouble(lines[lines.length - 1].trim());
    }
}
