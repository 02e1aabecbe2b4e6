package dev.parq.sink.page;

/**
 * Parquet's RLE/bit-packed hybrid encoding of small non-negative integers (dictionary ids, levels),
 * over a whole page's values at once: a value repeated at least {@link #MIN_RUN} times is one RLE
 * run, everything between such runs is packed in groups of eight values of {@code bitWidth} bits
 * each, lowest bit first. Only the last group of a page is padded, with zeros.
 */
public final class RleHybridEncoder {

    /** Repeats below this cost fewer bytes bit-packed than as a run of their own. */
    static final int MIN_RUN = 8;

    private RleHybridEncoder() {}

    /** The bits needed for values from 0 to {@code max}. */
    public static int bitWidth(int max) {
        return 32 - Integer.numberOfLeadingZeros(max);
    }

    /** Appends the first {@code count} of {@code values}, none wider than {@code bitWidth} bits, to {@code out}. */
    public static void encode(int[] values, int count, int bitWidth, ByteSink out) {
        int i = 0;
        while (i < count) {
            int run = runLength(values, i, count);
            if (run >= MIN_RUN) {
                out.putVarInt((long) run << 1);
                out.putLittleEndian(values[i], (bitWidth + 7) >>> 3);
                i += run;
            } else {
                int end = i + 8;
                while (end < count && runLength(values, end, Math.min(count, end + MIN_RUN)) < MIN_RUN) {
                    end += 8;
                }
                int groups = (end - i) >>> 3;
                out.putVarInt(((long) groups << 1) | 1);
                pack(values, i, Math.min(end, count), groups * 8, bitWidth, out);
                i = end;
            }
        }
    }

    /** How many values from {@code from}, before {@code to}, equal the one at {@code from}. */
    private static int runLength(int[] values, int from, int to) {
        int value = values[from];
        int j = from + 1;
        while (j < to && values[j] == value) {
            j++;
        }
        return j - from;
    }

    /** Packs values {@code from} to {@code to}, then zeros up to {@code slots} values in all. */
    private static void pack(int[] values, int from, int to, int slots, int bitWidth, ByteSink out) {
        out.reserve((slots >>> 3) * bitWidth);
        long buffer = 0;
        int bits = 0;
        for (int k = from; k < to; k++) {
            buffer |= (values[k] & 0xFFFFFFFFL) << bits;
            bits += bitWidth;
            while (bits >= 8) {
                out.put((int) buffer);
                buffer >>>= 8;
                bits -= 8;
            }
        }
        // Eight values of any width fill whole bytes, so the padding only has to complete the group.
        for (int k = to - from; k < slots; k++) {
            bits += bitWidth;
            while (bits >= 8) {
                out.put((int) buffer);
                buffer >>>= 8;
                bits -= 8;
            }
        }
    }
}
