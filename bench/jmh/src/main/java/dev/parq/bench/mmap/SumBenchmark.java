package dev.parq.bench.mmap;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.mmap.DType;
import dev.parq.mmap.FloatArray;
import dev.parq.mmap.MmapArray;
import dev.parq.mmap.MmapArrayException;

/**
 * Sums a float32 mmap array file sequentially through a {@link FloatArray} view, element by element
 * and in bulk blocks; one operation sums the whole file, whose pages stay in the page cache between
 * operations. The file ({@code gib} GiB) is written through {@link MmapArray} before the fork
 * measures, and deleted afterwards. {@code bench/jmh/numpy_sum.py} times numpy on the same kind of
 * file.
 */
@Measurement(iterations = 3, time = 10)
public class SumBenchmark extends StageBenchmark {

    private static final int BLOCK = 1 << 16;

    @Param("4")
    public int gib;

    private Path file;
    private MmapArray<FloatArray> array;
    private FloatArray view;
    private final float[] block = new float[BLOCK];

    @Setup(Level.Trial)
    public void createFile() throws IOException, MmapArrayException {
        file = Files.createTempFile("parq-sum-benchmark", ".mmap");
        long elements = ((long) gib << 30) / Float.BYTES;
        ByteBuffer header = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        header.put("MMAP".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 1);
        header.putShort((short) 1).putLong(elements).putLong(elements);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.write(header.array());
            raf.setLength(64 + elements * Float.BYTES);
        }
        try (MmapArray<FloatArray> writable = MmapArray.openReadWrite(file, DType.FLOAT32)) {
            FloatArray target = writable.viewMut();
            for (long start = 0; start < elements; start += BLOCK) {
                int count = (int) Math.min(BLOCK, elements - start);
                for (int i = 0; i < count; i++) {
                    block[i] = ((start + i) % 1000) * 0.001f;
                }
                target.set(start, block, 0, count);
            }
            writable.flush();
        }
        array = MmapArray.openReadOnly(file, DType.FLOAT32);
        view = array.view();
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        array.close();
        Files.delete(file);
    }

    /** Four accumulators so that the loop is bound by loads, not by the latency of one add chain. */
    @Benchmark
    public double elementByElement(Throughput throughput) {
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
        throughput.bytes += array.dataBytes();
        throughput.rows += length;
        return s0 + s1 + s2 + s3;
    }

    /** Bulk reads of 64 Ki elements into one heap block, summed like {@link #elementByElement}. */
    @Benchmark
    public double blocks(Throughput throughput) {
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
        throughput.bytes += array.dataBytes();
        throughput.rows += length;
        return total;
    }
}
