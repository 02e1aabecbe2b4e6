package dev.parq.sink.page;

import java.util.Arrays;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;

import dev.parq.batch.VectorBytes;

/**
 * The Arrow vectors on the way to a leaf column that is repeated at most once: the vector of each
 * optional ROW above the leaf, outermost first, then either the leaf's own vector, all indexed by
 * row, or the ARRAY whose elements the leaf's vector holds. A row's definition level, or that of
 * an ARRAY element, is how many of them, from the top, are set, each ARRAY adding a level for
 * its repeated group. Levels are worked out in scratch arrays of its own: one thread at a time.
 */
public final class LeafPath {

    /** The ROWs and, last, the leaf or the ARRAY, indexed by row. */
    private final ValueVector[] vectors;
    private final ListVector list;
    private final ValueVector leaf;
    /** Scratch of {@link #levels}: the validity buffers of {@link #vectors}, read anew as refilling may replace them. */
    private final ArrowBuf[] validity;
    /** Scratch of {@link #levels}: per vector, the rows of a 64-row word where it and all above are set. */
    private final long[] set;

    private LeafPath(ValueVector[] vectors, ListVector list, ValueVector leaf) {
        this.vectors = vectors;
        this.list = list;
        this.leaf = leaf;
        this.validity = new ArrowBuf[vectors.length];
        this.set = new long[vectors.length];
    }

    /** A leaf column under {@code rows}, outermost first, whose values {@code leaf} holds. */
    public static LeafPath of(ValueVector[] rows, ValueVector leaf) {
        ValueVector[] vectors = Arrays.copyOf(rows, rows.length + 1);
        vectors[rows.length] = leaf;
        return new LeafPath(vectors, null, leaf);
    }

    /** The elements of ARRAY {@code list} under {@code rows}, outermost first. */
    public static LeafPath ofElements(ValueVector[] rows, ListVector list) {
        ValueVector[] vectors = Arrays.copyOf(rows, rows.length + 1);
        vectors[rows.length] = list;
        return new LeafPath(vectors, list, list.getDataVector());
    }

    public ValueVector leaf() {
        return leaf;
    }

    /** The bytes of the leaf's values in rows {@code start} to {@code end}, as {@link VectorBytes} measures them. */
    public long leafBytes(int start, int end) {
        if (list == null) {
            return VectorBytes.of(leaf, start, end);
        }
        ArrowBuf offsets = list.getOffsetBuffer();
        return end <= start ? 0 : VectorBytes.of(leaf, offset(offsets, start), offset(offsets, end));
    }

    /** The highest definition level, that of a present value. */
    public int maxDefinitionLevel() {
        return list == null ? vectors.length : vectors.length + 2;
    }

    public int maxRepetitionLevel() {
        return list == null ? 0 : 1;
    }

    /** The slots of rows {@code start} to {@code end}, into {@code out}. */
    void levels(int start, int end, RowLevels out) {
        for (int i = 0; i < vectors.length; i++) {
            validity[i] = vectors[i].getValidityBuffer();
        }
        if (list == null) {
            out.reset(end - start, vectors.length);
            for (int row = start; row < end; ) {
                loadWords(validity, row >>> 6, set);
                int wordEnd = Math.min(end, ((row >>> 6) + 1) << 6);
                long rows = (-1L >>> (64 - (wordEnd - row))) << row;
                if ((set[set.length - 1] & rows) == rows) {
                    out.addValues(row, wordEnd);
                    row = wordEnd;
                    continue;
                }
                for (; row < wordEnd; row++) {
                    int level = levelOf(set, row);
                    if (level == vectors.length) {
                        out.addValue(0, row);
                    } else {
                        out.addNull(0, level);
                    }
                }
            }
            return;
        }
        ArrowBuf offsets = list.getOffsetBuffer();
        ArrowBuf elementValidity = leaf.getValidityBuffer();
        int elements = offset(offsets, end) - offset(offsets, start);
        out.reset(elements + end - start, vectors.length + 2);
        for (int row = start; row < end; row++) {
            if (row == start || (row & 63) == 0) {
                loadWords(validity, row >>> 6, set);
            }
            int level = levelOf(set, row);
            if (level < vectors.length) {
                out.addNull(0, level);
                continue;
            }
            int from = offset(offsets, row);
            int to = offset(offsets, row + 1);
            if (from == to) {
                out.addNull(0, level);
                continue;
            }
            for (int element = from; element < to; element++) {
                int repetition = element == from ? 0 : 1;
                if (BitVectorHelper.get(elementValidity, element) != 0) {
                    out.addValue(repetition, element);
                } else {
                    out.addNull(repetition, level + 1);
                }
            }
        }
    }

    /**
     * Sets {@code set[i]} to the rows of 64-row word {@code word} where the first {@code i + 1}
     * vectors on the path are all set, so that a row's level is how many of these have its bit.
     */
    private static void loadWords(ArrowBuf[] validity, int word, long[] set) {
        long all = -1L;
        for (int i = 0; i < validity.length; i++) {
            all &= word(validity[i], word);
            set[i] = all;
        }
    }

    private static int levelOf(long[] set, int row) {
        int level = 0;
        for (long word : set) {
            level += (int) (word >>> row) & 1;
        }
        return level;
    }

    /** Bits {@code 64 * word} to {@code 64 * word + 63} of a validity buffer, which may end within them. */
    private static long word(ArrowBuf validity, int word) {
        long at = (long) word * Long.BYTES;
        if (at + Long.BYTES <= validity.capacity()) {
            return validity.getLong(at);
        }
        long bits = 0;
        for (long i = at; i < validity.capacity(); i++) {
            bits |= (validity.getByte(i) & 0xFFL) << (8 * (i - at));
        }
        return bits;
    }

    private static int offset(ArrowBuf offsets, int row) {
        return offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
    }
}
