package dev.parq.mmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parq.mmap.MmapArrayException.Kind;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * numpy as an independent oracle (mmap/src/test/python/oracle.py): files written by Java are
 * read by numpy and the other way round, compared bit for bit. Skipped when python3 with numpy
 * is not installed; CI installs it with {@code pip install numpy}. Its cases run two at a time:
 * each has a python process and a directory of its own.
 */
@Execution(ExecutionMode.CONCURRENT)
class NumpyOracleIT {

    private static final Path ORACLE = Path.of("src/test/python/oracle.py").toAbsolutePath();
    private static final long[][] SHAPES = {{}, {0}, {7}, {2, 3}, {2, 1, 3, 1, 2, 2}};

    @TempDir
    Path dir;

    private Process oracle;
    private BufferedWriter toOracle;
    private BufferedReader fromOracle;

    @BeforeAll
    static void requireNumpy() {
        boolean available;
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            available = probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            available = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            available = false;
        }
        assumeTrue(available, "python3 with numpy is not installed (pip install numpy); skipping the numpy oracle");
    }

    /**
     * Runs a command of oracle.py in this case's python process, started at its first command:
     * one process imports numpy once for the case's hundred or so commands.
     */
    private String python(String... args) throws Exception {
        if (oracle == null) {
            oracle = new ProcessBuilder("python3", ORACLE.toString(), "serve").redirectErrorStream(true).start();
            toOracle = new BufferedWriter(new OutputStreamWriter(oracle.getOutputStream(), StandardCharsets.UTF_8));
            fromOracle = new BufferedReader(new InputStreamReader(oracle.getInputStream(), StandardCharsets.UTF_8));
        }
        toOracle.write(String.join("\t", args) + "\n");
        toOracle.flush();
        StringBuilder output = new StringBuilder();
        for (String line = fromOracle.readLine(); ; line = fromOracle.readLine()) {
            assertNotNull(line, "oracle.py ended: " + output);
            if (line.startsWith("\0")) {
                assertEquals("0", line.substring(1), "oracle.py " + String.join(" ", args) + " failed: " + output);
                return output.toString();
            }
            output.append(line).append('\n');
        }
    }

    @AfterEach
    void stopOracle() throws Exception {
        if (oracle != null) {
            toOracle.close();
            assertTrue(oracle.waitFor(60, TimeUnit.SECONDS), "oracle.py did not end");
        }
    }

    private static String shapeArgument(long[] shape) {
        return LongStream.of(shape).mapToObj(Long::toString).collect(Collectors.joining(","));
    }

    /** The sample elements of oracle.py's {@code sample()}, as raw bits, computed in Java. */
    private static long[] sampleBits(DType<?> dtype, long[] shape) {
        int count = (int) NdArray.checkedLength(shape);
        long[] bits = new long[count];
        for (int i = 0; i < count; i++) {
            double value = i * 1.25 - 3;
            boolean isFloat = dtype == DType.FLOAT32 || dtype == DType.FLOAT64;
            if (isFloat && count >= 3 && i < 3) {
                value = new double[] {Double.NaN, -0.0, Double.POSITIVE_INFINITY}[i];
            }
            if (dtype == DType.FLOAT32) {
                bits[i] = Integer.toUnsignedLong(Float.floatToRawIntBits((float) value));
            } else if (dtype == DType.FLOAT64) {
                bits[i] = Double.doubleToRawLongBits(value);
            } else if (count >= 2 && i < 2) {
                boolean wide = dtype == DType.INT64;
                long extreme = i == 0 ? (wide ? Long.MIN_VALUE : Integer.MIN_VALUE)
                        : (wide ? Long.MAX_VALUE : Integer.MAX_VALUE);
                bits[i] = wide ? extreme : Integer.toUnsignedLong((int) extreme);
            } else {
                long truncated = (long) value;
                bits[i] = dtype == DType.INT64 ? truncated : Integer.toUnsignedLong((int) truncated);
            }
        }
        return bits;
    }

    private static long[] rawBits(NdArray view) {
        long[] bits = new long[(int) view.length()];
        for (int i = 0; i < bits.length; i++) {
            if (view instanceof FloatArray) {
                bits[i] = Integer.toUnsignedLong(Float.floatToRawIntBits(((FloatArray) view).get(i)));
            } else if (view instanceof DoubleArray) {
                bits[i] = Double.doubleToRawLongBits(((DoubleArray) view).get(i));
            } else if (view instanceof IntArray) {
                bits[i] = Integer.toUnsignedLong(((IntArray) view).get(i));
            } else {
                bits[i] = ((LongArray) view).get(i);
            }
        }
        return bits;
    }

    /** An array of the sample elements, built from their bits. */
    private static NdArray sampleArray(DType<?> dtype, long[] shape) {
        long[] bits = sampleBits(dtype, shape);
        NdArray array = dtype.zeros(shape);
        for (int i = 0; i < bits.length; i++) {
            if (array instanceof FloatArray) {
                ((FloatArray) array).set(i, Float.intBitsToFloat((int) bits[i]));
            } else if (array instanceof DoubleArray) {
                ((DoubleArray) array).set(i, Double.longBitsToDouble(bits[i]));
            } else if (array instanceof IntArray) {
                ((IntArray) array).set(i, (int) bits[i]);
            } else {
                ((LongArray) array).set(i, bits[i]);
            }
        }
        return array;
    }

    private Path writeBitsFile(DType<?> dtype, long[] shape) throws IOException {
        Path file = dir.resolve("expected.bits");
        String bits = LongStream.of(sampleBits(dtype, shape))
                .mapToObj(Long::toUnsignedString).collect(Collectors.joining(" "));
        Files.writeString(file, dtype.name() + "\n" + shapeArgument(shape) + "\n" + bits + "\n");
        return file;
    }

    @Test
    void numpyReadsWhatJavaWrites() throws Exception {
        for (DType<?> dtype : DType.values()) {
            for (long[] shape : SHAPES) {
                Path file = dir.resolve("java.mmap");
                MmapArray.create(file, sampleArray(dtype, shape)).close();
                python("check-mmap", file.toString(), writeBitsFile(dtype, shape).toString());
            }
        }
    }

    @Test
    void javaReadsWhatNumpyWrites() throws Exception {
        for (DType<?> dtype : DType.values()) {
            for (long[] shape : SHAPES) {
                Path file = dir.resolve("numpy.mmap");
                python("write-mmap", file.toString(), dtype.name(), shapeArgument(shape),
                        dir.resolve("ignored.bits").toString());
                try (MmapArray<?> array = MmapArray.openReadOnly(file)) {
                    assertEquals(dtype, array.dtype());
                    assertArrayEquals(shape, array.shape());
                    assertArrayEquals(sampleBits(dtype, shape), rawBits(array.view()),
                            dtype + " " + Arrays.toString(shape));
                }
            }
        }
    }

    @Test
    void npySavedByNumpyConvertsToMmap() throws Exception {
        for (String version : new String[] {"1", "2"}) {
            for (DType<?> dtype : DType.values()) {
                long[] shape = {3, 4};
                Path npy = dir.resolve("numpy.npy");
                Path mmap = dir.resolve("converted.mmap");
                python(version.equals("2")
                        ? new String[] {"save-npy", npy.toString(), dtype.name(), "3,4", dir.resolve("b").toString(), "--version"}
                        : new String[] {"save-npy", npy.toString(), dtype.name(), "3,4", dir.resolve("b").toString()});
                Npy.toMmap(npy, mmap);
                try (MmapArray<?> array = MmapArray.openReadOnly(mmap)) {
                    assertEquals(dtype, array.dtype());
                    assertArrayEquals(shape, array.shape());
                    assertArrayEquals(sampleBits(dtype, shape), rawBits(array.view()));
                }
            }
        }
    }

    @Test
    void npyWrittenByJavaLoadsInNumpy() throws Exception {
        for (DType<?> dtype : DType.values()) {
            for (long[] shape : SHAPES) {
                Path mmap = dir.resolve("java.mmap");
                Path npy = dir.resolve("java.npy");
                MmapArray.create(mmap, sampleArray(dtype, shape)).close();
                Npy.fromMmap(mmap, npy);
                python("check-npy", npy.toString(), writeBitsFile(dtype, shape).toString());
            }
        }
    }

    @Test
    void fortranOrderAndBigEndianFromNumpyAreRefused() throws Exception {
        Path npy = dir.resolve("refused.npy");
        python("save-npy", npy.toString(), "float64", "3,2", dir.resolve("b").toString(), "--fortran");
        MmapArrayException fortran = assertThrows(MmapArrayException.class,
                () -> Npy.toMmap(npy, dir.resolve("x.mmap")));
        assertEquals(Kind.NON_CONTIGUOUS, fortran.kind());

        python("save-npy", npy.toString(), "int32", "5", dir.resolve("b").toString(), "--big-endian");
        MmapArrayException bigEndian = assertThrows(MmapArrayException.class,
                () -> Npy.toMmap(npy, dir.resolve("x.mmap")));
        assertEquals(Kind.DTYPE_MISMATCH, bigEndian.kind());
        assertTrue(bigEndian.getMessage().contains(">i4"), bigEndian.getMessage());
    }

    /**
     * Count, sum, minimum and maximum of every element type, NaN skipped, as numpy's nansum
     * (in float64), nanmin and nanmax give them: on numpy's own random files, in sizes around
     * the reader's blocks and lanes and one cut into a stretch per core, with 1% NaN among the
     * floats; and on a strided view.
     */
    @Test
    void statsAreNumpys() throws Exception {
        for (DType<?> dtype : DType.values()) {
            for (int count : new int[] {0, 1, 3, 4, 5, 1000, 65_536, 65_537, 300_001, 9_000_001}) {
                Path file = dir.resolve("stats.mmap");
                String[] expected = python("stats-mmap", file.toString(), dtype.name(), Integer.toString(count),
                        Integer.toString(count + 7)).trim().split(" ");
                try (MmapArray<?> array = MmapArray.openReadOnly(file)) {
                    Stats stats = array.view().stats();
                    String where = dtype.name() + " x " + count;
                    assertEquals(Long.parseLong(expected[0]), stats.count(), where);
                    double sum = Double.parseDouble(expected[1]);
                    assertEquals(sum, stats.sum(), Math.abs(sum) * 1e-12 + 1e-9, where);
                    assertEquals(Double.parseDouble(expected[2]), stats.min(), 0.0, where);
                    assertEquals(Double.parseDouble(expected[3]), stats.max(), 0.0, where);
                    assertEquals(stats.count() == 0 ? Double.NaN : stats.sum() / stats.count(), stats.mean(), 0.0, where);
                }
            }
        }
        DoubleArray grid = DoubleArray.of(new double[] {1, 2, 3, 4, Double.NaN, 6}, 2, 3);
        Stats column = grid.slice(1, 1, 2).stats();
        assertEquals(new Stats(1, 2, 2, 2), column);
        Stats transposed = grid.transpose().stats();
        assertEquals(new Stats(5, 16, 1, 6), transposed);
    }
}
