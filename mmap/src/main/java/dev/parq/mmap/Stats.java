package dev.parq.mmap;

import java.util.function.ObjIntConsumer;
import java.util.stream.IntStream;

/**
 * Count, sum, minimum, maximum and mean of an array's elements, NaN skipped (as numpy's
 * {@code nansum}, {@code nanmin} and {@code nanmax}): {@link #count} is the elements that are not
 * NaN, the sum is accumulated in double whatever the element type.
 *
 * <p>Elements are read in blocks copied out of the mapping (a bulk copy on a contiguous view) and
 * summed with four independent accumulators: a single running sum waits for each addition to
 * finish before the next, and the JIT does not reorder floating-point additions for us. A block
 * whose plain sum comes out NaN is summed again element by element, skipping the NaNs, so that
 * data without NaN pays nothing for them.
 *
 * @param min the least element, or NaN if there is none (all NaN, or empty)
 * @param max the greatest element, or NaN if there is none
 */
public record Stats(long count, double sum, double min, double max) {

    private static final int BLOCK = 1 << 16;
    /** Fewer elements than this per thread are summed on one: starting a thread would cost more. */
    private static final long PER_THREAD = 1 << 22;

    /** The mean of the elements that are not NaN; NaN if there are none. */
    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    /**
     * The statistics of every element of {@code array}, whatever its element type and strides. A
     * large array is cut into one stretch per core, each summed on a thread of its own and the
     * results merged: the reads of a mapping are independent, and one core adds at about half
     * the rate memory delivers.
     */
    public static Stats of(NdArray array) {
        Stretch summed = stretchOf(array);
        long length = array.length();
        int parts = (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), length / PER_THREAD));
        long stretch = (length + parts - 1) / parts;
        return IntStream.range(0, parts).parallel()
                .mapToObj(part -> {
                    Accumulator acc = new Accumulator();
                    long from = part * stretch;
                    summed.into(acc, from, Math.min(length, from + stretch));
                    return acc;
                })
                .reduce(Accumulator::merge)
                .orElseThrow()
                .stats();
    }

    /** Accumulates the elements {@code [from, to)} of one array. */
    private interface Stretch {
        void into(Accumulator acc, long from, long to);
    }

    /** How to accumulate a stretch of {@code array}: chosen once by its element type, not per stretch. */
    private static Stretch stretchOf(NdArray array) {
        if (array instanceof FloatArray floats) {
            return (acc, from, to) -> forEachBlock(floats, from, to, acc::add);
        } else if (array instanceof DoubleArray doubles) {
            return (acc, from, to) -> forEachBlock(doubles, from, to, acc::add);
        } else if (array instanceof IntArray ints) {
            return (acc, from, to) -> forEachBlock(ints, from, to, acc::add);
        } else if (array instanceof LongArray longs) {
            return (acc, from, to) -> forEachBlock(longs, from, to, acc::add);
        }
        throw new IllegalArgumentException("no statistics for " + array.dtype().name());
    }

    /** Hands the elements {@code [from, to)} of {@code array} to {@code consumer} in C order, a block at a time. */
    private static <P> void forEachBlock(TypedView<?, P> array, long from, long to, ObjIntConsumer<P> consumer) {
        int blockLength = (int) Math.min(BLOCK, Math.max(1, to - from));
        P block = array.newValues(blockLength);
        for (long at = from; at < to; at += blockLength) {
            int count = (int) Math.min(blockLength, to - at);
            array.get(at, block, 0, count);
            consumer.accept(block, count);
        }
    }

    private static final class Accumulator {
        private long count;
        private double sum;
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;
        private boolean any;
        private long[] widened;

        // A twin of add(double[]): one loop over blocks widened to double took 30% longer.
        void add(float[] b, int n) {
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            // Per lane too; a comparison with NaN is false, so NaN never becomes either.
            float lo0 = Float.POSITIVE_INFINITY;
            float lo1 = lo0;
            float lo2 = lo0;
            float lo3 = lo0;
            float hi0 = Float.NEGATIVE_INFINITY;
            float hi1 = hi0;
            float hi2 = hi0;
            float hi3 = hi0;
            int i = 0;
            for (; i + 4 <= n; i += 4) {
                float a0 = b[i];
                float a1 = b[i + 1];
                float a2 = b[i + 2];
                float a3 = b[i + 3];
                s0 += a0;
                s1 += a1;
                s2 += a2;
                s3 += a3;
                lo0 = a0 < lo0 ? a0 : lo0;
                lo1 = a1 < lo1 ? a1 : lo1;
                lo2 = a2 < lo2 ? a2 : lo2;
                lo3 = a3 < lo3 ? a3 : lo3;
                hi0 = a0 > hi0 ? a0 : hi0;
                hi1 = a1 > hi1 ? a1 : hi1;
                hi2 = a2 > hi2 ? a2 : hi2;
                hi3 = a3 > hi3 ? a3 : hi3;
            }
            for (; i < n; i++) {
                s0 += b[i];
                lo0 = b[i] < lo0 ? b[i] : lo0;
                hi0 = b[i] > hi0 ? b[i] : hi0;
            }
            double lo = Math.min(Math.min(lo0, lo1), Math.min(lo2, lo3));
            double hi = Math.max(Math.max(hi0, hi1), Math.max(hi2, hi3));
            double blockSum = (s0 + s1) + (s2 + s3);
            long blockCount = n;
            if (Double.isNaN(blockSum)) {
                blockSum = 0;
                blockCount = 0;
                for (int k = 0; k < n; k++) {
                    if (!Float.isNaN(b[k])) {
                        blockSum += b[k];
                        blockCount++;
                    }
                }
            }
            merge(blockCount, blockSum, lo, hi);
        }

        void add(double[] b, int n) {
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            // Per lane too; a comparison with NaN is false, so NaN never becomes either.
            double lo0 = Double.POSITIVE_INFINITY;
            double lo1 = lo0;
            double lo2 = lo0;
            double lo3 = lo0;
            double hi0 = Double.NEGATIVE_INFINITY;
            double hi1 = hi0;
            double hi2 = hi0;
            double hi3 = hi0;
            int i = 0;
            for (; i + 4 <= n; i += 4) {
                double a0 = b[i];
                double a1 = b[i + 1];
                double a2 = b[i + 2];
                double a3 = b[i + 3];
                s0 += a0;
                s1 += a1;
                s2 += a2;
                s3 += a3;
                lo0 = a0 < lo0 ? a0 : lo0;
                lo1 = a1 < lo1 ? a1 : lo1;
                lo2 = a2 < lo2 ? a2 : lo2;
                lo3 = a3 < lo3 ? a3 : lo3;
                hi0 = a0 > hi0 ? a0 : hi0;
                hi1 = a1 > hi1 ? a1 : hi1;
                hi2 = a2 > hi2 ? a2 : hi2;
                hi3 = a3 > hi3 ? a3 : hi3;
            }
            for (; i < n; i++) {
                s0 += b[i];
                lo0 = b[i] < lo0 ? b[i] : lo0;
                hi0 = b[i] > hi0 ? b[i] : hi0;
            }
            double lo = Math.min(Math.min(lo0, lo1), Math.min(lo2, lo3));
            double hi = Math.max(Math.max(hi0, hi1), Math.max(hi2, hi3));
            double blockSum = (s0 + s1) + (s2 + s3);
            long blockCount = n;
            if (Double.isNaN(blockSum)) {
                blockSum = 0;
                blockCount = 0;
                for (int k = 0; k < n; k++) {
                    if (!Double.isNaN(b[k])) {
                        blockSum += b[k];
                        blockCount++;
                    }
                }
            }
            merge(blockCount, blockSum, lo, hi);
        }

        /**
         * Widened to {@code long} so that one loop serves both integer types: that loop waits on
         * its single running sum anyway, so the extra pass costs no measurable time.
         */
        void add(int[] b, int n) {
            if (widened == null || widened.length < n) {
                widened = new long[b.length];
            }
            for (int i = 0; i < n; i++) {
                widened[i] = b[i];
            }
            add(widened, n);
        }

        /**
         * Integers are never NaN. The sum, minimum and maximum stay in locals during the loop
         * because the JIT keeps fields in memory: updating the fields per element took more than
         * twice as long.
         */
        void add(long[] b, int n) {
            double runningSum = sum;
            double lo = min;
            double hi = max;
            for (int i = 0; i < n; i++) {
                runningSum += b[i];
                lo = Math.min(lo, b[i]);
                hi = Math.max(hi, b[i]);
            }
            count += n;
            sum = runningSum;
            min = lo;
            max = hi;
            any |= n > 0;
        }

        private void merge(long blockCount, double blockSum, double lo, double hi) {
            count += blockCount;
            sum += blockSum;
            if (blockCount > 0) {
                min = Math.min(min, lo);
                max = Math.max(max, hi);
                any = true;
            }
        }

        /** Takes in what {@code other} accumulated over the elements after this one's. */
        Accumulator merge(Accumulator other) {
            count += other.count;
            sum += other.sum;
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
            any |= other.any;
            return this;
        }

        Stats stats() {
            return any ? new Stats(count, sum, min, max) : new Stats(0, 0, Double.NaN, Double.NaN);
        }
    }
}
